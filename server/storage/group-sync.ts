import fs from 'node:fs/promises';

/**
 * One file's or folder's fsync, shared by everyone who asks at about the same time (a group
 * commit). A caller is answered by a sync that started after it asked, so everything it wrote or
 * renamed before asking is on the disk; callers who ask while a sync runs share the next one.
 * Under an upload rush a hundred answers then wait for a few syncs instead of a hundred.
 */
export class GroupSync {
  private running: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(
    /** What to sync: a folder (its entries) or a file (its data). */
    private readonly target: string,
    private readonly kind: 'folder' | 'file',
    /** Synced instead while `target` does not exist (SQLite's WAL before the first write). */
    private readonly fallback?: string,
  ) {}

  sync(): Promise<void> {
    if (!this.running) return this.start();
    this.next ??= this.running.then(
      () => this.startNext(),
      () => this.startNext(),
    );
    return this.next;
  }

  private startNext(): Promise<void> {
    this.next = undefined;
    return this.start();
  }

  private start(): Promise<void> {
    const run = this.syncOnce();
    this.running = run;
    const done = () => {
      if (this.running === run) this.running = undefined;
    };
    run.then(done, done);
    return run;
  }

  private async syncOnce(): Promise<void> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.target, 'r');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !this.fallback) throw e;
      handle = await fs.open(this.fallback, 'r');
    }
    try {
      await (this.kind === 'folder' ? handle.sync() : handle.datasync());
    } finally {
      await handle.close();
    }
  }
}
