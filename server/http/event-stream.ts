import type { Request, Response } from 'express';

/** One Server-Sent Event: `id`, `event` and one line of JSON data. */
export interface StreamEvent {
  id: number;
  type: string;
  data: unknown;
  /** Not stored, never replayed: sent without an id. */
  passing?: boolean;
}

/** An open text/event-stream as the domain sees it: no headers, no response object. */
export interface EventStreamWriter {
  /** Writes one event; throws when the connection can no longer be written. */
  send(ev: StreamEvent): void;
  /** Ends the stream cleanly (the browser reconnects on its own). */
  end(): void;
  /** Drops a broken connection. */
  destroy(): void;
  /** Called once when the connection closes, whoever closed it. */
  onClose(fn: () => void): void;
}

export interface EventStreamOptions {
  /** A comment line this often keeps proxies and tunnels from closing an idle stream. */
  pingMs?: number;
  /** How long a browser waits before reconnecting (the SSE `retry:` field). */
  retryMs?: number;
}

/**
 * `id: 7\nevent: photo-visible\ndata: {...}\n\n`; JSON.stringify never emits a newline, so data is one
 * line. A passing event has no id line: the browser's last event id stays the last stored one.
 */
export function formatEvent(ev: StreamEvent): string {
  return `${ev.passing ? '' : `id: ${ev.id}\n`}event: ${ev.type}\ndata: ${JSON.stringify(ev.data)}\n\n`;
}

/** The Last-Event-ID header (reconnects) or ?lastEventId= (a first connect that resumes); undefined when absent or not a count. */
export function parseLastEventId(req: Request): number | undefined {
  const raw = req.get('last-event-id') ?? (typeof req.query.lastEventId === 'string' ? req.query.lastEventId : undefined);
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim())) return undefined;
  return Number(raw.trim());
}

/**
 * Turns the response into an event stream: headers sent at once (nothing buffered by nginx),
 * the reconnect delay, then a ping comment every `pingMs` until the connection closes.
 */
export function openEventStream(req: Request, res: Response, opts: EventStreamOptions = {}): EventStreamWriter {
  res.status(200).set({
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.flushHeaders();
  req.socket.setNoDelay(true);
  res.write(`retry: ${opts.retryMs ?? 3_000}\n\n`);
  const ping = setInterval(() => res.write(': ping\n\n'), opts.pingMs ?? 25_000);
  res.on('close', () => clearInterval(ping));
  return {
    send: (ev) => {
      res.write(formatEvent(ev));
    },
    end: () => {
      clearInterval(ping);
      res.end();
    },
    destroy: () => {
      clearInterval(ping);
      res.destroy();
    },
    onClose: (fn) => {
      res.on('close', fn);
    },
  };
}
