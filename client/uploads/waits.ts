import type { Timers } from './types';

/** Timed waits; a wait given a key can be ended early with wakeAll() (retry now, not after the backoff). */
export class Waits {
  private readonly wakers = new Map<string, () => void>();

  constructor(private readonly timers: Timers) {}

  sleep(ms: number, key?: string): Promise<void> {
    return new Promise((resolve) => {
      const handle = this.timers.setTimeout(() => {
        if (key) this.wakers.delete(key);
        resolve();
      }, ms);
      if (!key) return;
      this.wakers.set(key, () => {
        this.wakers.delete(key);
        this.timers.clearTimeout(handle);
        resolve();
      });
    });
  }

  wakeAll(): void {
    for (const wake of [...this.wakers.values()]) wake();
  }
}
