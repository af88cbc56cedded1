import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { UploadRow } from '../db/schema.js';
import { log } from '../log.js';
import { sniffFile } from './sniff.js';
import { newId, type Enqueue, type FoundOriginal, type UploadStore } from './store.js';
import type { UploadsRepo } from './uploads.repo.js';

export interface OrphanSweepDeps {
  paths: DataPaths;
  repo: UploadsRepo;
  processing: Enqueue;
  store: UploadStore;
  /** A receiving chunked upload takes back the original named after it (ChunkedUploads.reclaim). */
  reclaim(row: UploadRow): Promise<void>;
  /** Tells the activity list how many files were recovered. */
  recordRecovered(n: number): Promise<void>;
  /** When this process started (ms): files it moved into originals are newer and never touched. */
  startedAt: number;
}

export interface SweepResult {
  /** Photos that never got their processing job, queued now. */
  queued: number;
  /** Originals no photo owned, now hidden photos. */
  recovered: number;
  /** Originals named after a chunked upload still receiving, given back to it. */
  returned: number;
  /** Originals no photo owned that stay where they are: their bytes are a photo already, or no accepted type. */
  kept: number;
}

/** Our ids: 16 random bytes in base64url. */
const ID = /^[A-Za-z0-9_-]{22}$/;

/** A file being written beside an original (a rotation's) until it is renamed over it: never a photo of its own. */
const HALF_WRITTEN = /\.rotating$/;

async function describe(file: string): Promise<FoundOriginal | undefined> {
  const type = await sniffFile(file);
  if (!type) return undefined;
  const st = await fsp.stat(file);
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return { file, sha256: hash.digest('hex'), size: st.size, type, modifiedAt: st.mtime };
}

/**
 * What a crash or a power cut can leave half-done, put right at start; no original is ever
 * deleted (only a rotation's unfinished copy beside one). A photo whose processing job was never
 * stored is queued. The original of a deleted photo is not a lost one (storedPaths names it
 * until its file is gone). An original no photo owns was received whole (its bytes were synced
 * before its rename) but its row was lost: one
 * named after a chunked upload still receiving goes back to that upload, which stores it when
 * the phone resumes; any other becomes a hidden photo (SHA-256, size, type by its first bytes,
 * its stored name, its file time as upload time) and is processed like a new upload. Directory
 * first, rows second: a file moved in during the sweep is either not listed or already owned,
 * and its change time (set by the move) keeps this process's own uploads out.
 */
export async function sweepOrphans(d: OrphanSweepDeps): Promise<SweepResult> {
  const stuck = await d.repo.photosWithoutJobs();
  for (const id of stuck) await d.processing.enqueue(id);
  const names = await fsp.readdir(d.paths.originals).catch(() => [] as string[]);
  const candidates: string[] = [];
  for (const name of names) {
    const abs = path.join(d.paths.originals, name);
    const st = await fsp.stat(abs).catch(() => undefined);
    if (!st?.isFile() || st.ctimeMs >= d.startedAt) continue;
    // A crash cut its writing short; the original it was to replace is still there, whole.
    if (HALF_WRITTEN.test(name)) await fsp.rm(abs, { force: true }).catch((e) => log.warn(`Start-up sweep: could not remove the unfinished ${abs}`, e));
    else candidates.push(abs);
  }
  const owned = await d.repo.storedPaths();
  const result: SweepResult = { queued: stuck.length, recovered: 0, returned: 0, kept: 0 };
  for (const abs of candidates) {
    if (owned.has(path.relative(d.paths.root, abs))) continue;
    const id = path.basename(abs).split('.')[0];
    const upload = ID.test(id) ? await d.repo.receivingById(id) : undefined;
    if (upload) {
      await d.reclaim(upload);
      result.returned++;
      continue;
    }
    const found = await describe(abs);
    const photoId = ID.test(id) && !(await d.repo.photoExists(id)) ? id : newId();
    if (found && (await d.store.adopt(found, photoId))) result.recovered++;
    else {
      result.kept++;
      log.warn(`Start-up sweep: ${abs} belongs to no photo and stays where it is (${found ? 'the same bytes are stored as another photo' : 'not a photo or video we accept'})`);
    }
  }
  if (result.recovered) await d.recordRecovered(result.recovered);
  if (stuck.length || result.recovered || result.returned) {
    log.warn(`Start-up sweep: queued ${stuck.length} unprocessed photo(s), recovered ${result.recovered} original(s) no photo owned, gave ${result.returned} back to their uploads`);
  }
  return result;
}
