import type { Area, Shared } from '../area.js';
import { log } from '../log.js';
import { qrRouter } from '../qr/qr.routes.js';
import { EventStreams, type EventStreamOptions } from './event-stream.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The reception wall's live feed (GET /api/events) and the QR sign helpers (GET /api/qr.svg, /api/public-url). */
export function createEventsArea(shared: Shared, opts: EventStreamOptions = {}): Area & { streams: EventStreams } {
  const streams = new EventStreams(shared.bus, opts);
  let pruneTimer: NodeJS.Timeout | undefined;
  const prune = () => shared.bus.prune().catch((err) => log.warn('Could not prune old wall events', err));
  return {
    streams,
    publicApi: [streams.router(), qrRouter(shared.ctx.config)],
    start() {
      void prune();
      pruneTimer = setInterval(prune, DAY_MS);
      pruneTimer.unref();
    },
    closing() {
      streams.closeAll();
    },
    stop() {
      clearInterval(pruneTimer);
      streams.closeAll();
    },
  };
}
