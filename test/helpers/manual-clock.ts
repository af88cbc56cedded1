import type { Clock } from '../../server/notifications/clock.js';

/** A clock that moves only when the test says so: timers fire as `advance` passes their time. */
export class ManualClock implements Clock {
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private seq = 0;

  constructor(private t = Date.now()) {}

  now(): number {
    return this.t;
  }

  after(ms: number, fn: () => void): () => void {
    const id = ++this.seq;
    this.timers.push({ at: this.t + ms, fn, id });
    return () => {
      this.timers = this.timers.filter((x) => x.id !== id);
    };
  }

  /** Moves time forward, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = Math.max(this.t, due.at);
      due.fn();
    }
    this.t = end;
  }

  /** Timers waiting (to check that something is or is not scheduled). */
  get pending(): number {
    return this.timers.length;
  }
}
