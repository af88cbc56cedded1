import crypto from 'node:crypto';
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError } from '../errors.js';
import type { Bucket } from './bucket.js';

// The local disk as a cache of the bucket (eviction.ts): when room is short, how much to free,
// what the cache is given, and the file checks it makes.

/** How often the disk is looked at for room (when keep_local is "derivatives"). */
export const EVICT_EVERY_MS = 30_000;
/** An original asked for (read, fetched back) stays at least this long: whoever asked is reading it. */
export const HOLD_MS = 60_000;
/**
 * Short of room: free space below MIN_FREE_MB x 4, or stored media above 90 % of STORAGE_LIMIT_GB.
 * Originals then leave, oldest first, until free space is MIN_FREE_MB x 6 and stored media 80 % of
 * the limit: comfortably above, so the disk does not go back and forth around the line.
 */
export const SHORT_FREE = 4;
export const ROOMY_FREE = 6;
export const NEAR_LIMIT = 0.9;
export const ROOMY_LIMIT = 0.8;

/** The answer while an original is only in the bucket and the bucket does not answer (503, tried again later). */
export const originalAway = () => new AppError('unavailable', 'errors.offsite.original_away', undefined, { retry_after: 60 });

export interface LocalSpace {
  /** MIN_FREE_MB in bytes. */
  minFreeBytes: number;
  /** STORAGE_LIMIT_GB in bytes; undefined: only free space counts. */
  limitBytes: number | undefined;
  /** Bytes of stored media on this disk (the dashboard's and the upload limit's measure). */
  used(): Promise<number>;
  /** Free bytes on DATA_DIR's file system (statfs by default). */
  free?(): Promise<number>;
}

export interface LocalCacheDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  /** The bucket in force; null when none is set up. */
  bucket(): Bucket | null;
  /** Whether originals may leave the local disk (S3_KEEP_LOCAL=derivatives and a bucket set up). */
  mayEvict(): boolean;
  space?: LocalSpace;
  /** The bucket turned out not to hold a copy it was recorded with: the copy is made again. */
  lost?(rel: string): void;
  now?: () => number;
  holdMs?: number;
}

export interface EvictResult {
  files: number;
  bytes: number;
}

export interface Candidate {
  rel: string;
  size: number;
  mtime_ms: number;
  sha256: string;
  id: string;
  upload_timestamp: string;
}

export async function sha256Of(fh: fs.promises.FileHandle): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fh.createReadStream({ start: 0, autoClose: false, highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) hash.update(chunk);
  return hash.digest('hex');
}

export const sameFile = (a: fs.Stats, b: fs.Stats) => a.ino === b.ino && a.dev === b.dev && a.size === b.size && a.mtimeMs === b.mtimeMs;
