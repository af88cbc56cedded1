/**
 * Every step of processing has a time limit (CONTRACT "No job waits forever"): a tool over it is
 * killed, an in-process step (sharp, exifr) is abandoned and its worker replaced, and the job
 * counts it as an attempt, so a hung decoder can hold a slot for at most its limit.
 */

/** Default limit of one step (PROCESSING_TIME_LIMIT_S): generous for a big photo on a slow machine at low priority. */
export const DEFAULT_STEP_LIMIT_MS = 120_000;

/** A step ran past its limit; not the file's fault for sure, so it is retried like any failure, up to max_attempts. */
export class StepTimeoutError extends Error {
  /** The step ran inside the media worker (sharp, exifr): its work may still be running there. */
  readonly inProcess: boolean;
  constructor(message: string, inProcess = false) {
    super(message);
    this.inProcess = inProcess;
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export const tookTooLong = (what: string, ms: number) => `${what} took longer than ${seconds(ms)} and was stopped`;

/** `work`, or a StepTimeoutError once `ms` have passed without it settling. */
export function withinLimit<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepTimeoutError(tookTooLong(what, ms), true)), ms);
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

/** A re-encode: the step's limit plus 30 s per second of video (an unknown length counts as 10 minutes). */
export const encodeLimitMs = (stepMs: number, duration: number | null) => Math.round(stepMs + 30_000 * (duration ?? 600));

/**
 * A step at the lowest CPU priority (nice 19: the poster frame) runs only on CPU nobody else
 * wants: a busy machine slows it far more than the rest, so it gets three times the step's limit.
 */
export const lowPriorityLimitMs = (stepMs: number) => 3 * stepMs;

/** A stream copy of `bytes`: the step's limit plus 1 s per 10 MB (a slow disk). */
export const copyLimitMs = (stepMs: number, bytes: number) => Math.round(stepMs + bytes / 10_000);
