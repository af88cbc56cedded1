import { execFile } from 'node:child_process';
import { log } from '../log.js';

/*
 * Upload bytes are written back to the disk in rounds, about once a second, instead of when the
 * kernel decides. Left to itself it starts writing dirty data only once it reaches a tenth of
 * the free memory (about 2 GB on a 24 GB machine) or is 30 s old, and then writes it in one
 * burst: under the 100-guest rush a burst kept the disk busy for up to 6 s, and every read or
 * write of a page not in memory (the database's first) waited behind it. A round syncs the file
 * system that holds DATA_DIR (`sync -f`: one flush of everything written since the last round,
 * not one per file), so the disk's queue never holds more than a second or two of uploads.
 * Phones are answered as soon as their bytes are written, without waiting for a round.
 */

let unsynced = 0;

/** Counts bytes an upload has just written (file-sink.ts). */
export function noteWritten(bytes: number): void {
  unsynced += bytes;
}

/** Syncs the file system holding `dir` (coreutils' `sync -f`, that is syncfs). */
export function syncFileSystem(dir: string): Promise<void> {
  return new Promise((resolve, reject) => execFile('sync', ['-f', dir], { timeout: 120_000 }, (e) => (e ? reject(e) : resolve())));
}

export const WRITE_BACK_EVERY_MS = 1000;

/** Runs `sync` every `everyMs` in which uploads wrote bytes, one round at a time. */
export class WriteBackRounds {
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Rounds done so far. */
  rounds = 0;

  constructor(
    private readonly sync: () => Promise<void>,
    private readonly everyMs = WRITE_BACK_EVERY_MS,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => this.tick(), this.everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    if (this.running || unsynced === 0) return;
    unsynced = 0;
    this.running = true;
    this.sync()
      .then(() => this.rounds++)
      .catch((e) => log.debug('A write-back round failed; the next one tries again', e))
      .finally(() => (this.running = false));
  }
}
