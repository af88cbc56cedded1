import { UploadEngine } from '../../client/uploads/engine.js';
import type { StoredUpload, UploadStore } from '../../client/uploads/store.js';
import type { Notice } from '../../client/uploads/types.js';
import { FakeServer, FakeTimers, json, type Reply, type SeenRequest } from './upload-engine-fakes.js';

/** The browser's IndexedDB as a map: records are copied in and out, as structured clone does. */
export class FakeStore implements UploadStore {
  recs = new Map<string, StoredUpload>();
  files = new Map<string, Blob>();
  /** When true, adding a file fails like a full quota or a private mode that refuses blobs. */
  refuse = false;

  async add(rec: StoredUpload, file: Blob): Promise<void> {
    if (this.refuse) throw new DOMException('quota', 'QuotaExceededError');
    this.recs.set(rec.id, { ...rec });
    this.files.set(rec.id, file);
  }
  async put(rec: StoredUpload): Promise<void> {
    this.recs.set(rec.id, { ...rec });
  }
  async dropFile(id: string): Promise<void> {
    this.files.delete(id);
  }
  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.recs.delete(id);
      this.files.delete(id);
    }
  }
  async load() {
    return [...this.recs.values()].sort((a, b) => a.seq - b.seq).map((rec) => ({ rec: { ...rec }, file: this.files.get(rec.id) ?? null }));
  }
}

/**
 * A server that remembers chunked uploads by (session_id, upload_id) like the real one: the
 * offset call answers what it holds, a chunk past it is 409, the last chunk creates a photo.
 */
export class ResumableServer {
  held = new Map<string, number>();
  created: string[] = [];
  /** Return a reply to override the normal answer (e.g. 'hang' to cut the page off). */
  intercept: (r: SeenRequest) => Reply | undefined = () => undefined;

  handle = (r: SeenRequest): Reply => {
    const over = this.intercept(r);
    if (over !== undefined) return over;
    if (r.path === '/api/upload') return this.create(r.fields.find(([k]) => k === 'file')![1] as { name: string });
    if (r.path === '/api/upload-chunk/offset') {
      return json(200, { success: true, received_bytes: this.held.get(`${r.query.get('session_id')}/${r.query.get('upload_id')}`) ?? 0 });
    }
    if (r.path === '/api/upload-chunk') {
      const key = `${r.field('session_id')}/${r.field('upload_id')}`;
      const have = this.held.get(key) ?? 0;
      const start = Number(r.field('chunk_start'));
      if (start > have) return json(409, { success: false, error: 'Chunk out of order', code: 'conflict', received_bytes: have });
      const end = Number(r.field('chunk_end'));
      this.held.set(key, Math.max(have, end));
      if (r.field('is_last_chunk') === 'true') return this.create({ name: r.field('filename')! });
      return json(200, { success: true, received_bytes: Math.max(have, end) });
    }
    if (r.path.endsWith('/status')) return json(200, { success: true, status: 'complete', duplicate_type: null });
    return json(404, { success: false, error: 'Not found' });
  };

  private create(file: { name: string }): Reply {
    this.created.push(file.name);
    return json(201, { success: true, photo_id: `p-${this.created.length}`, duplicate: false, duplicate_type: null });
  }
}

let seq = 0;
/** One page load: its own clock and session id, the given store and server state. */
export function pageLoad(store: UploadStore, server: ResumableServer, sessionId: string) {
  const clock = new FakeTimers();
  const wire = new FakeServer(clock, server.handle);
  const notices: Notice[] = [];
  const engine = new UploadEngine({
    transport: wire.transport,
    timers: clock,
    notify: (n) => notices.push(n),
    randomId: () => `${sessionId}-id${++seq}`,
    sessionId,
  });
  return { clock, wire, notices, engine };
}
