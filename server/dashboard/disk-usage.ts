import fs from 'node:fs';
import type { DataPaths } from '../context.js';
import { resolveStored } from '../photos/photo-files.js';
import { WriteBehind } from '../db/write-behind.js';
import type { MediaBytesRepo, Measured, Unmeasured } from './media-bytes.repo.js';

/** Photos measured per call and stats at once: bounded, so a large backlog never floods the thread pool. */
const BATCH = 200;
const AT_ONCE = 2;

/**
 * Bytes of stored media: the originals' sizes and partial uploads come from SQLite, and each
 * photo's derivatives are measured once (two stats) and kept in media_bytes until their paths
 * change. Walking media/ instead cost a stat per file on every load, queued on the same four
 * libuv threads that serve thumbnails and write uploads, which stalled both under an upload rush.
 *
 * New measurements count at once and are recorded after the answer, all in one write: the
 * dashboard and an upload's admission never wait for the database's writer, which an upload rush
 * keeps busy. One instance serves both (server.ts), so they share its measurements.
 */
export class DiskUsage {
  private pending: Promise<number> | undefined;
  /** Measured, not yet recorded (by photo). */
  private readonly records: WriteBehind<Measured>;

  constructor(
    private readonly paths: DataPaths,
    private readonly repo: MediaBytesRepo,
  ) {
    this.records = new WriteBehind((batch) => repo.record(batch.map(([, m]) => m)), "the size of photos' derivatives");
  }

  /** Concurrent callers share one computation. */
  used(): Promise<number> {
    this.pending ??= this.compute().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Resolves once the measurements taken so far are recorded (or their write failed, logged). */
  recorded(): Promise<void> {
    return this.records.flush();
  }

  private async compute(): Promise<number> {
    const { stored, unmeasured } = await this.repo.usage(BATCH);
    let bytesOfUnmeasured = 0;
    const fresh: Measured[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        while (next < unmeasured.length) {
          const m = unmeasured[next++];
          const known = this.records.queuedFor(m.photo_id);
          const same = known && known.thumb_path === m.thumb_path && known.display_path === m.display_path;
          const bytes = same ? known.bytes : await this.measure(m);
          if (!same) fresh.push({ ...m, bytes });
          bytesOfUnmeasured += bytes;
        }
      }),
    );
    for (const m of fresh) this.records.set(m.photo_id, m); // one turn: one write
    return stored + bytesOfUnmeasured;
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
