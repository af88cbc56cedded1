import fs from 'node:fs/promises';

/** A derivative held in memory, with what a conditional GET needs. */
export interface CachedFile {
  body: Buffer;
  etag: string;
  lastModified: string;
}

/**
 * Thumbnails and display images kept in memory, most recently used first, up to `budgetBytes`.
 * A gallery page asks for dozens of thumbnails at once and every guest asks for the same ones:
 * served from here, each costs no file system call (stat, open, read, close each wait their turn
 * in libuv's thread pool, behind the writes of every upload under way). A derivative's path
 * names its version and is never rewritten (a rebuild writes a new file under a new name), so an
 * entry never goes stale; entries of deleted or rebuilt photos are simply no longer asked for and
 * age out.
 */
export class MediaCache {
  private readonly entries = new Map<string, CachedFile>();
  private bytes = 0;

  constructor(
    private readonly budgetBytes: number,
    /** Files larger than this are streamed from disk every time. */
    private readonly maxFileBytes: number,
  ) {}

  /** The file's bytes from memory, or read now and kept; null when it is too large to keep. */
  async get(file: string): Promise<CachedFile | null> {
    const hit = this.entries.get(file);
    if (hit) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(file);
      this.entries.set(file, hit);
      return hit;
    }
    const handle = await fs.open(file, 'r');
    let entry: CachedFile;
    try {
      const st = await handle.stat();
      if (st.size > this.maxFileBytes || st.size > this.budgetBytes) return null;
      const body = Buffer.allocUnsafe(st.size);
      let got = 0;
      while (got < st.size) {
        const { bytesRead } = await handle.read(body, got, st.size - got, got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      // Same validators as express's send would give, so a browser's cached copy stays valid.
      entry = { body: body.subarray(0, got), etag: `W/"${got.toString(16)}-${st.mtime.getTime().toString(16)}"`, lastModified: st.mtime.toUTCString() };
    } finally {
      await handle.close();
    }
    this.keep(file, entry);
    return entry;
  }

  get size(): { files: number; bytes: number } {
    return { files: this.entries.size, bytes: this.bytes };
  }

  private keep(file: string, entry: CachedFile): void {
    const old = this.entries.get(file);
    if (old) this.bytes -= old.body.length;
    this.entries.set(file, entry);
    this.bytes += entry.body.length;
    for (const [oldest, e] of this.entries) {
      if (this.bytes <= this.budgetBytes) break;
      this.entries.delete(oldest);
      this.bytes -= e.body.length;
    }
  }
}
