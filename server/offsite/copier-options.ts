import type { Kysely } from 'kysely';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import type { BucketProblem } from './bucket.js';

/** Back-off after a failure: 2, 4, 8 ... seconds, never more than `cap` (a minute). */
export const backoffMs = (failures: number, cap = 60_000) => Math.min(cap, 1000 * 2 ** Math.min(failures, 6));

export interface CopierOptions {
  db: Kysely<DB>;
  paths: DataPaths;
  /** Copies at once (each holds at most one part in memory). */
  concurrency?: number;
  /** How often the queue is looked at when nothing woke it. */
  pollMs?: number;
  /** The longest wait after failures (a minute). */
  maxBackoffMs?: number;
  now?: () => number;
}

export interface CopyError {
  code: BucketProblem;
  message: string;
  at: string;
}
