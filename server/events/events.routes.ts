import { Router } from 'express';
import { openEventStream, parseLastEventId, type EventStreamOptions } from '../http/event-stream.js';
import type { EventStreams } from './events.service.js';

/** GET /events: Server-Sent Events for live screens (public). */
export function eventsRouter(streams: EventStreams, opts: EventStreamOptions = {}): Router {
  const r = Router();
  r.get('/events', async (req, res) => {
    const release = streams.admit(req.ip ?? req.socket.remoteAddress ?? '');
    const given = parseLastEventId(req);
    const sink = openEventStream(req, res, opts);
    sink.onClose(release);
    await streams.connect(sink, given);
  });
  return r;
}
