import { Router } from 'express';
import { openEventStream, parseLastEventId, type EventStreamOptions } from '../http/event-stream.js';
import type { EventStreams } from './events.service.js';

/** GET /events: Server-Sent Events for live screens (public). */
export function eventsRouter(streams: EventStreams, opts: EventStreamOptions = {}): Router {
  const r = Router();
  r.get('/events', async (req, res) => {
    const given = parseLastEventId(req);
    await streams.connect(openEventStream(req, res, opts), given);
  });
  return r;
}
