// The jobs of the processing queue (queue.ts): their kinds, payloads and the errors that end them.

export interface RegenerateStats {
  processed: number;
  succeeded: number;
  failed: number;
}

/** The jobs this queue knows: their payloads and what a finished one gives its waiter. */
export interface JobKinds {
  'process-media': { payload: { photoId: string }; result: void };
  rotate: { payload: { photoId: string; degrees: 90 | 180 | 270 }; result: void };
  regenerate: { payload: { photoId: string }; result: void };
  'regenerate-all': { payload: Record<string, never>; result: RegenerateStats };
  /** A video's web copy, made from the derivatives of `version` (skipped when a newer version exists). */
  transcode: { payload: { photoId: string; version: number }; result: void };
  /** Similar-shot and quality measures of a photo processed before they existed. */
  measure: { payload: { photoId: string }; result: void };
  /** Hands out a measure job for each photo still without measures, one at a time. */
  'measure-all': { payload: Record<string, never>; result: void };
  /** The playable copy of a guestbook message's voice note. */
  'voice-copy': { payload: { entryId: string }; result: void };
  /** A film or photo book made from the day: only when nothing else waits. */
  keepsake: { payload: { keepsakeId: string }; result: void };
}
export type JobType = keyof JobKinds;
export type Payload<T extends JobType> = JobKinds[T]['payload'];
export type Result<T extends JobType> = JobKinds[T]['result'];

/** A claimed job with its payload parsed; `type` tells the payload's shape. */
export type Job = { [T in JobType]: { id: number; type: T; payload: Payload<T>; attempts: number; maxAttempts: number } }[JobType];

/** A failure that retrying cannot fix (the file itself is bad): the job fails at once. */
export class PermanentJobError extends Error {}
/** The job's row is gone: its photo was deleted before the job could run (or before it was queued). */
export class JobGoneError extends Error {}
/** The queue stopped before the job finished; it stays in the table and runs after the next start. */
export class QueueStoppedError extends Error {}

export interface JobHandlers {
  run(job: Job): Promise<unknown>;
  /** Called once a job has failed for good. */
  failed(job: Job, error: Error): Promise<void>;
}
