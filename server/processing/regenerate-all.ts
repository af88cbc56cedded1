import { conflict } from '../errors.js';
import { log } from '../log.js';
import { messageOf } from './job-errors.js';
import { QueueStoppedError, type RegenerateStats } from './queue.js';

export const ALREADY_REGENERATING = 'errors.processing.already_regenerating';

/** What the admin's call answers: the statistics, and whether the work still goes on. */
export interface RegenerateAllAnswer {
  statistics: RegenerateStats;
  running: boolean;
}

/**
 * One "regenerate all thumbnails" at a time. The work is a coordinator job in the queue that
 * hands out one regenerate job per photo; the admin's request waits for it at most
 * `answerAfterMs` and then answers with the statistics so far while the work goes on.
 */
export class RegenerateAll {
  /** The run under way (its live statistics), or undefined. */
  private current: RegenerateStats | undefined;

  constructor(private readonly answerAfterMs: number) {}

  /** Starts a run through `submit` (conflict while one is under way) and answers as above. */
  async request(submit: () => Promise<RegenerateStats>): Promise<RegenerateAllAnswer> {
    // Checked and taken with no await in between: two calls at once cannot both start.
    if (this.current) throw conflict(ALREADY_REGENERATING);
    const stats: RegenerateStats = { processed: 0, succeeded: 0, failed: 0 };
    this.current = stats;
    const done = submit().finally(() => {
      if (this.current === stats) this.current = undefined;
    });
    let cancel = () => {};
    const late = new Promise<undefined>((resolve) => {
      const timer = setTimeout(resolve, this.answerAfterMs);
      cancel = () => clearTimeout(timer);
    });
    try {
      const finished = await Promise.race([done, late]);
      if (finished) return { statistics: finished, running: false };
      // The queue logs a failure of the work that goes on; nobody waits for it any more.
      done.catch(() => {});
      return { statistics: { ...stats }, running: true };
    } finally {
      cancel();
    }
  }

  /**
   * The coordinator job's body: every photo in turn, counted into the live statistics (a run
   * resumed after a restart has no request waiting and starts its own count).
   */
  async run(ids: readonly string[], regenerateOne: (id: string) => Promise<void>): Promise<RegenerateStats> {
    const stats = (this.current ??= { processed: 0, succeeded: 0, failed: 0 });
    try {
      for (const id of ids) {
        try {
          await regenerateOne(id);
          stats.succeeded++;
        } catch (e) {
          if (e instanceof QueueStoppedError) throw e;
          stats.failed++;
          log.warn(`Regenerating derivatives of ${id} failed: ${messageOf(e)}`);
        }
        stats.processed++;
      }
      return { ...stats };
    } finally {
      if (this.current === stats) this.current = undefined;
    }
  }
}
