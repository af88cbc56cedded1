import { Router, type Request, type Response } from 'express';
import { log } from '../log.js';
import type { BusEvent, EventBus } from './bus.js';

export interface EventStreamOptions {
  /** A comment line this often keeps proxies and tunnels from closing an idle stream. */
  pingMs?: number;
  /** How long a browser waits before reconnecting (the SSE `retry:` field). */
  retryMs?: number;
  /** A client that missed more than this is told to reload its list instead of replaying. */
  maxReplay?: number;
}

const REPLAY_BATCH = 500;

/** `id: 7\nevent: photo-visible\ndata: {...}\n\n`; JSON.stringify never emits a newline, so data is one line. */
export function formatEvent(ev: { id: number; type: string; data: unknown }): string {
  return `id: ${ev.id}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev.data)}\n\n`;
}

/** The Last-Event-ID header (reconnects) or ?lastEventId= (a first connect that resumes); undefined when absent or not a count. */
export function parseLastEventId(req: Request): number | undefined {
  const raw = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/**
 * GET /events: Server-Sent Events for live screens. On connect it subscribes first and buffers,
 * then replays what the client missed, then sends `event: ready` ({last_event_id, resync}) and
 * whatever arrived meanwhile, so nothing falls between replay and live. `resync: true` means
 * the replay could not be complete (events pruned, a different database, too many missed): the
 * client reloads its list.
 */
export class EventStreams {
  private readonly open = new Set<Response>();
  private readonly pingMs: number;
  private readonly retryMs: number;
  private readonly maxReplay: number;

  constructor(
    private readonly bus: EventBus,
    opts: EventStreamOptions = {},
  ) {
    this.pingMs = opts.pingMs ?? 25_000;
    this.retryMs = opts.retryMs ?? 3_000;
    this.maxReplay = opts.maxReplay ?? 2_000;
  }

  router(): Router {
    const r = Router();
    r.get('/events', (req, res) => this.serve(req, res));
    return r;
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream (shutdown): browsers reconnect on their own once the server is back. */
  closeAll(): void {
    for (const res of this.open) res.end();
    this.open.clear();
  }

  private async serve(req: Request, res: Response): Promise<void> {
    const given = parseLastEventId(req);
    res.status(200).set({
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    req.socket.setNoDelay(true);
    res.write(`retry: ${this.retryMs}\n\n`);

    let lastSent = 0;
    let replaying = true;
    let closed = false;
    const pending: BusEvent[] = [];
    const send = (ev: BusEvent) => {
      if (closed || ev.id <= lastSent) return;
      lastSent = ev.id;
      try {
        res.write(formatEvent(ev));
      } catch (err) {
        // Runs inside bus.publish: a broken connection must never fail the approval that published.
        log.warn('Dropping a wall stream that could not be written', err);
        cleanup();
        res.destroy();
      }
    };
    const unsubscribe = this.bus.subscribe((ev) => (replaying ? pending.push(ev) : send(ev)));
    const ping = setInterval(() => res.write(': ping\n\n'), this.pingMs);
    const cleanup = () => {
      if (closed) return;
      closed = true;
      clearInterval(ping);
      unsubscribe();
      this.open.delete(res);
    };
    res.on('close', cleanup);
    this.open.add(res);

    try {
      const { first, last } = await this.bus.bounds();
      // Whatever was published after we subscribed is news to this client even if its id is <= last.
      const fresh = pending.length ? Math.min(last, pending[0].id - 1) : last;
      let resync = false;
      if (given === undefined) {
        lastSent = fresh;
      } else if (given > last || given < (first || last + 1) - 1) {
        // A different database, or events it missed were pruned: replaying would leave gaps.
        resync = true;
        lastSent = fresh;
      } else {
        lastSent = given;
        let replayed = 0;
        for (;;) {
          const batch = await this.bus.since(lastSent, REPLAY_BATCH);
          if (closed) return;
          for (const ev of batch) send(ev);
          replayed += batch.length;
          if (batch.length < REPLAY_BATCH) break;
          if (replayed >= this.maxReplay) {
            resync = true;
            break;
          }
        }
        if (resync) lastSent = Math.max(lastSent, fresh);
      }
      if (closed) return;
      res.write(formatEvent({ id: lastSent, type: 'ready', data: { last_event_id: lastSent, resync } }));
      replaying = false;
      for (const ev of pending.splice(0)) send(ev);
    } catch (err) {
      log.error('The event stream could not start', err);
      cleanup();
      res.end();
    }
  }
}
