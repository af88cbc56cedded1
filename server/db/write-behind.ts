import { log } from '../log.js';

/** Writes many keys' values in one statement. */
export type WriteMany<V> = (batch: [key: string, value: V][]) => Promise<void>;

/** Values written per statement. */
const BATCH = 200;

/**
 * Values the server knows now and writes to the database soon after, many per statement, so that
 * an answer never waits for the write (under an upload rush every write queues behind the disk).
 * Values set in the same turn go out together. A value stays queued until a write holding it has
 * succeeded; after a failed write (logged) the queue waits for the next `set` to try again.
 */
export class WriteBehind<V> {
  private readonly queued = new Map<string, V>();
  private writing: Promise<void> | undefined;

  constructor(
    private readonly write: WriteMany<V>,
    /** What is written, for the log: "how far uploads got". */
    private readonly what: string,
  ) {}

  /** The value set for `key` and not yet written. */
  queuedFor(key: string): V | undefined {
    return this.queued.get(key);
  }

  set(key: string, value: V): void {
    this.queued.set(key, value);
    this.writing ??= this.writeOut().finally(() => (this.writing = undefined));
  }

  /** Not to be written any more (its row is gone, or says more now). */
  drop(key: string): void {
    this.queued.delete(key);
  }

  /** Resolves once everything set so far is written, or its write failed. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeOut(): Promise<void> {
    await Promise.resolve(); // the rest of this turn's values join the first write
    while (this.queued.size) {
      const batch = [...this.queued].slice(0, BATCH);
      try {
        await this.write(batch);
      } catch (e) {
        log.warn(`Recording ${this.what} failed; the next change tries again`, e);
        return;
      }
      for (const [key, value] of batch) if (this.queued.get(key) === value) this.queued.delete(key);
    }
  }
}
