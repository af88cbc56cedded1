// The rush benchmark's HTTP side: one keep-alive agent per simulated browser (6 sockets, as a
// browser opens per host) and a recorder of latencies per route and phase.
import fs from 'node:fs';
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Transform } from 'node:stream';

export interface Answer {
  status: number;
  body: string;
  /** Request start to the whole answer read. */
  ms: number;
  /** The server's own time from the body's last byte to the answer (its Server-Timing after-body); NaN without it. */
  serverMs: number;
  /** From the moment the client handed the body's last byte to its socket to the whole answer read; NaN without a body. */
  afterLastByteMs: number;
  /** A new connection's setup (request start to connected); NaN on a reused connection. */
  connectMs: number;
}

export type Body = { buffer: Buffer } | { file: string; start: number; end: number; head: string; tail: string };

/** --upload-mbps: the most each upload request's body sends per second (a phone on Wi-Fi); 0 for no limit. */
let uploadBytesPerSecond = 0;
export function limitUploadRate(bytesPerSecond: number): void {
  uploadBytesPerSecond = bytesPerSecond;
}

/** --rtt-ms: a network round trip the guests' requests pay (a new connection, the request's way there and the answer's back). */
let roundTripMs = 0;
export function simulateRoundTrip(ms: number): void {
  roundTripMs = ms;
}

/** Lets bytes through no faster than `rate` a second, from the first one on. */
function throttle(rate: number): Transform {
  let sent = 0;
  let began = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!began) began = performance.now();
      sent += chunk.length;
      const due = began + (sent / rate) * 1000 - performance.now();
      if (due > 1) setTimeout(() => done(null, chunk), due);
      else done(null, chunk);
    },
  });
}

/**
 * Phones come from addresses of their own, as on the venue's network (or through a tunnel that
 * passes each phone's address on): the server caps some things per address (upload turns: 8 asks
 * and turns at once), and a hundred guests from 127.0.0.1 would be one phone to it, most of them
 * sending without a turn. Linux routes all of 127.0.0.0/8 to loopback, so each simulated phone
 * binds an address of its own there. --one-address (shareOneAddress) sends everyone from
 * 127.0.0.1 instead, as phones behind one router with one public address.
 */
const KIND_OCTET = { guest: 10, gallery: 20, arrival: 30, admin: 40, poller: 50 } as const;
let oneAddress = false;
export function shareOneAddress(on: boolean): void {
  oneAddress = on;
}
export function phoneAddress(kind: keyof typeof KIND_OCTET, n: number): string | undefined {
  if (oneAddress) return undefined;
  return `127.${KIND_OCTET[kind] + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/** How long each request waited for a free connection of its browser (ms), for the report. */
export const connectionWaits: number[] = [];

export class Browser {
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 6 });
  cookie = '';

  /** `address`: the phone's own (phoneAddress); the system's choice (127.0.0.1) without one. */
  constructor(
    readonly base: string,
    readonly address?: string,
  ) {}

  async request(method: string, pathname: string, opts: { body?: Body; headers?: Record<string, string> } = {}): Promise<Answer> {
    if (!roundTripMs) return this.send(method, pathname, opts);
    // A round trip to connect and half of one for the request to arrive; half for the answer to come back.
    await new Promise((r) => setTimeout(r, 1.5 * roundTripMs));
    const a = await this.send(method, pathname, opts);
    await new Promise((r) => setTimeout(r, roundTripMs / 2));
    return a;
  }

  private send(method: string, pathname: string, opts: { body?: Body; headers?: Record<string, string> }): Promise<Answer> {
    const url = new URL(pathname, this.base);
    const headers: Record<string, string | number> = { ...opts.headers };
    if (this.cookie) headers.cookie = this.cookie;
    const b = opts.body;
    if (b) headers['content-length'] = 'buffer' in b ? b.buffer.length : Buffer.byteLength(b.head) + (b.end - b.start) + Buffer.byteLength(b.tail);
    const asked = performance.now();
    let t0 = asked;
    let lastByte = NaN;
    let connectMs = NaN;
    return new Promise<Answer>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent: this.agent, headers, localAddress: this.address }, (res) => {
        const set = res.headers['set-cookie'];
        if (set?.length) this.cookie = set.map((c) => c.split(';')[0]).join('; ');
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('error', reject);
        res.on('end', () => {
          const now = performance.now();
          const timing = /after-body;dur=([\d.]+)/.exec(String(res.headers['server-timing'] ?? ''));
          // Decoded only when read: thumbnails and display images are counted, not decoded.
          resolve({
            status: res.statusCode ?? 0,
            get body() {
              return Buffer.concat(parts).toString('utf8');
            },
            ms: now - t0,
            serverMs: timing ? Number(timing[1]) : NaN,
            afterLastByteMs: now - lastByte,
            connectMs,
          });
        });
      });
      // Timed from the moment the request has a connection: waiting for one of this browser's
      // six is the client's own queue (a phone's too), not the server's time. A new connection is
      // handed over before it connects, so its setup (and the server's accepting it) is counted.
      req.once('socket', (socket) => {
        t0 = performance.now();
        connectionWaits.push(t0 - asked);
        if (socket.connecting) socket.once('connect', () => (connectMs = performance.now() - t0));
      });
      // 'finish': the last byte is in the socket (the kernel's buffers): from here a phone waits.
      if (b) req.once('finish', () => (lastByte = performance.now()));
      req.setTimeout(120_000, () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      if (!b) req.end();
      else if ('buffer' in b) req.end(b.buffer);
      else {
        req.write(b.head);
        const src = fs.createReadStream(b.file, { start: b.start, end: b.end - 1, highWaterMark: 1 << 20 });
        src.on('error', (e) => req.destroy(e));
        const body = uploadBytesPerSecond > 0 ? src.pipe(throttle(uploadBytesPerSecond)) : src;
        body.on('end', () => req.end(b.tail));
        body.pipe(req, { end: false });
      }
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** A multipart body: text fields first (as the guest page sends them), then the file part. */
export function multipart(fields: Record<string, string | number | boolean>, filename: string): { head: string; tail: string; type: string } {
  const boundary = `----rush${Math.random().toString(16).slice(2)}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { head, tail: `\r\n--${boundary}--\r\n`, type: `multipart/form-data; boundary=${boundary}` };
}

/** 'warm-up' (the readers' first seconds, while the server's and their own code warms up) is not reported. */
export type Phase = 'warm-up' | 'idle' | 'rush';

interface Series {
  ms: number[];
  errors: number;
  fiveXX: number;
}

/** Latencies per phase and route; an error is a failed request or a status of 500 and up. */
export class Recorder {
  private readonly data = new Map<string, Series>();
  phase: Phase = 'idle';

  private series(phase: Phase, route: string): Series {
    const key = `${phase}\u0000${route}`;
    let s = this.data.get(key);
    if (!s) this.data.set(key, (s = { ms: [], errors: 0, fiveXX: 0 }));
    return s;
  }

  add(route: string, ms: number, status: number): void {
    const s = this.series(this.phase, route);
    s.ms.push(ms);
    if (status >= 500) s.fiveXX++;
    if (status >= 400 || status === 0) s.errors++;
  }

  failed(route: string): void {
    this.series(this.phase, route).errors++;
  }

  routes(): string[] {
    return [...new Set([...this.data.keys()].map((k) => k.split('\u0000')[1]))];
  }

  get(phase: Phase, route: string): Series | undefined {
    return this.data.get(`${phase}\u0000${route}`);
  }

  /** Everything recorded, to send to another process. */
  entries(): [string, Series][] {
    return [...this.data.entries()];
  }

  /** Adds what another process recorded (Recorder.entries()). */
  merge(entries: [string, Series][]): void {
    for (const [key, theirs] of entries) {
      const [phase, route] = key.split('\u0000') as [Phase, string];
      const s = this.series(phase, route);
      for (const ms of theirs.ms) s.ms.push(ms);
      s.errors += theirs.errors;
      s.fiveXX += theirs.fiveXX;
    }
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Event-loop delay of this process from now until stop(), as text. */
export function lagMonitor(): { stop(): string } {
  const h = monitorEventLoopDelay({ resolution: 10 });
  h.enable();
  return {
    stop() {
      h.disable();
      const ms = (ns: number) => `${(ns / 1e6).toFixed(0)} ms`;
      return `p50 ${ms(h.percentile(50))}, p99 ${ms(h.percentile(99))}, max ${ms(h.max)}`;
    },
  };
}
