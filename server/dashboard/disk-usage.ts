import fs from 'node:fs';
import type { DataPaths } from '../context.js';
import { resolveStored } from '../photos/photo-files.js';
import type { MediaBytesRepo, Unmeasured } from './media-bytes.repo.js';

/** Photos measured per call and stats at once: bounded, so a large backlog never floods the thread pool. */
const BATCH = 200;
const AT_ONCE = 2;

/**
 * Bytes of stored media: the originals' sizes and partial uploads come from SQLite, and each
 * photo's derivatives are measured once (two stats) and kept in media_bytes until their paths
 * change. Walking media/ instead cost a stat per file on every load, queued on the same four
 * libuv threads that serve thumbnails and write uploads, which stalled both under an upload rush.
 */
export class DiskUsage {
  private pending: Promise<number> | undefined;

  constructor(
    private readonly paths: DataPaths,
    private readonly repo: MediaBytesRepo,
  ) {}

  /** Concurrent callers share one computation. */
  used(): Promise<number> {
    this.pending ??= this.compute().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async compute(): Promise<number> {
    const todo = await this.repo.unmeasured(BATCH);
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < todo.length) {
          const m = todo[next++];
          await this.repo.record(m, await this.measure(m));
        }
      }),
    );
    return this.repo.storedBytes();
  }

  private async measure(m: Unmeasured): Promise<number> {
    let bytes = 0;
    for (const rel of new Set([m.thumb_path, m.display_path])) {
      const abs = resolveStored(this.paths, rel);
      if (abs) bytes += await fs.promises.stat(abs).then((s) => s.size, () => 0);
    }
    return bytes;
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
