import { UploadEngine } from '../../client/uploads/engine.js';
import type { Notice, Timers, TransportRequest, TransportResponse } from '../../client/uploads/types.js';

/** Virtual time: callbacks run only when the test advances the clock. */
export class FakeTimers implements Timers {
  now = 0;
  private seq = 0;
  private queue: { id: number; at: number; fn: () => void }[] = [];

  setTimeout = (fn: () => void, ms: number): unknown => {
    const id = ++this.seq;
    this.queue.push({ id, at: this.now + Math.max(0, ms), fn });
    return id;
  };

  clearTimeout = (h: unknown): void => {
    this.queue = this.queue.filter((t) => t.id !== h);
  };

  pending(): number {
    return this.queue.length;
  }

  /** Runs every callback due within `ms`, in time order, letting promises settle between them. */
  async advance(ms: number): Promise<void> {
    const target = this.now + ms;
    await flush();
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.at > target) break;
      this.queue.shift();
      this.now = next.at;
      next.fn();
      await flush();
    }
    this.now = target;
    await flush();
  }
}

export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
}

export interface SeenRequest {
  at: number;
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  /** Form parts in the order they were appended; files as {name, size}. */
  fields: [string, string | { name: string; size: number }][];
  field(name: string): string | undefined;
}

export type Reply = TransportResponse | 'network-error' | 'hang' | Promise<TransportResponse>;
export const json = (status: number, body: unknown): TransportResponse => ({ status, statusText: '', body: JSON.stringify(body) });

/** A fake server behind the fetch-like transport: records every request, answers with `handler`. */
export class FakeServer {
  requests: SeenRequest[] = [];
  inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly clock: FakeTimers,
    public handler: (r: SeenRequest) => Reply,
  ) {}

  transport = async (req: TransportRequest): Promise<TransportResponse> => {
    const u = new URL(req.url, 'http://x');
    const fields: SeenRequest['fields'] = [];
    if (req.body) {
      for (const [k, v] of req.body.entries()) fields.push([k, typeof v === 'string' ? v : { name: (v as File).name, size: v.size }]);
    }
    const seen: SeenRequest = {
      at: this.clock.now,
      method: req.method,
      url: req.url,
      path: u.pathname,
      query: u.searchParams,
      fields,
      field: (n) => {
        const f = fields.find(([k]) => k === n)?.[1];
        return typeof f === 'string' ? f : undefined;
      },
    };
    this.requests.push(seen);
    const isUpload = req.method === 'POST';
    if (isUpload) {
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    }
    try {
      const reply = this.handler(seen);
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      if (reply === 'hang') {
        return await new Promise<TransportResponse>((_, reject) => req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }
      const res = await reply;
      const size = fields.find(([k]) => k === 'file')?.[1];
      if (typeof size === 'object') req.onUploadProgress?.(size.size, size.size);
      return res;
    } finally {
      if (isUpload) this.inFlight--;
    }
  };

  uploads(): SeenRequest[] {
    return this.requests.filter((r) => r.method === 'POST');
  }
}

/** A file of `size` bytes (content does not matter to the client). */
export function fakeFile(size: number, name = 'photo.jpg', type = 'image/jpeg'): File {
  return new File([new Uint8Array(size)], name, { type });
}

let idSeq = 0;
export function setup(handler: (r: SeenRequest) => Reply) {
  const clock = new FakeTimers();
  const server = new FakeServer(clock, handler);
  const notices: Notice[] = [];
  const engine = new UploadEngine({
    transport: server.transport,
    timers: clock,
    notify: (n) => notices.push(n),
    randomId: () => `id${++idSeq}`,
    sessionId: 'session-1',
  });
  return { clock, server, notices, engine };
}

/** The usual happy server: 201 for uploads and last chunks, 200 for other chunks, status complete. */
export function happy(r: SeenRequest): Reply {
  if (r.path === '/api/upload') return json(201, { success: true, photo_id: 'p1', duplicate: false, duplicate_type: null });
  if (r.path === '/api/upload-chunk') {
    if (r.field('is_last_chunk') === 'true') return json(201, { success: true, photo_id: 'p1', duplicate: false, duplicate_type: null });
    return json(200, { success: true, received_bytes: Number(r.field('chunk_end')) });
  }
  if (r.path.endsWith('/status')) return json(200, { success: true, status: 'complete', duplicate_type: null });
  if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: 0 });
  if (r.path === '/api/upload-turn') return json(200, { success: true, turn: `turn-${r.query.get('bytes')}` });
  return json(404, { success: false, error: 'Not found' });
}
