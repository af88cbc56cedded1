import fs from 'node:fs';
import path from 'node:path';
import type { DataPaths } from '../context.js';

/**
 * Bytes on disk under the media folders (originals, derivatives, partial uploads). A walk costs a
 * stat per file, so the total is kept and walked again only when the stored media changed (the
 * caller's cheap signature of the photos and uploads tables differs) or after a minute, so a
 * delete, a rebuild or a new upload shows on the next dashboard load.
 */
export class DiskUsage {
  private cached: { at: number; bytes: number; signature: string } | undefined;
  private pending: Promise<number> | undefined;

  constructor(
    private readonly paths: DataPaths,
    private readonly signature: () => Promise<string>,
    private readonly ttlMs = 60_000,
  ) {}

  async used(): Promise<number> {
    const signature = await this.signature();
    const c = this.cached;
    if (c && c.signature === signature && Date.now() - c.at < this.ttlMs) return c.bytes;
    this.pending ??= (async () => {
      try {
        const parts = await Promise.all([this.paths.originals, this.paths.derived, this.paths.incoming].map(folderBytes));
        const bytes = parts.reduce((a, b) => a + b, 0);
        this.cached = { at: Date.now(), bytes, signature };
        return bytes;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  /** STORAGE_LIMIT_GB, else the size of the filesystem holding DATA_DIR; null when unknown. */
  async limit(configured: number | undefined): Promise<number | null> {
    if (configured !== undefined) return configured;
    try {
      const s = await fs.promises.statfs(this.paths.root);
      return s.blocks * s.bsize;
    } catch {
      return null;
    }
  }
}

async function folderBytes(dir: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) {
      try {
        total += (await fs.promises.stat(p)).size;
      } catch {
        /* removed while walking */
      }
    }
  }
  return total;
}
