import fs from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import { log } from '../log.js';
import type { Enqueue } from './store.js';
import type { UploadsRepo } from './uploads.repo.js';

export interface OrphanSweepDeps {
  paths: DataPaths;
  repo: UploadsRepo;
  processing: Enqueue;
  /** When this process started (ms): files it moved into originals are newer and never swept. */
  startedAt: number;
}

/**
 * What a crash of an older version could leave behind: a photo whose processing job was never
 * stored (it would stay "processing" forever) is queued, and an original no photo row owns is
 * removed. Directory first, rows second: a file moved in during the sweep is either not listed
 * or already owned. Its change time (set by the move) keeps this process's own uploads out.
 */
export async function sweepOrphans(d: OrphanSweepDeps): Promise<{ queued: number; removed: number }> {
  const stuck = await d.repo.photosWithoutJobs();
  for (const id of stuck) await d.processing.enqueue(id);
  const names = await fs.readdir(d.paths.originals).catch(() => [] as string[]);
  const candidates: string[] = [];
  for (const name of names) {
    const abs = path.join(d.paths.originals, name);
    const st = await fs.stat(abs).catch(() => undefined);
    if (st?.isFile() && st.ctimeMs < d.startedAt) candidates.push(abs);
  }
  const owned = await d.repo.storedPaths();
  let removed = 0;
  for (const abs of candidates) {
    if (owned.has(path.relative(d.paths.root, abs))) continue;
    await fs.rm(abs, { force: true });
    removed++;
  }
  if (stuck.length || removed) log.warn(`Start-up sweep: queued ${stuck.length} unprocessed photo(s), removed ${removed} original(s) no photo owned`);
  return { queued: stuck.length, removed };
}
