/**
 * Counts failed sign-ins per key (a username or a client address) in a sliding window.
 * Kept in memory: a restart forgetting them errs on the side of the family member.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max = 10,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    if (list.length === 0) this.failures.delete(key);
    else this.failures.set(key, list);
    return list;
  }

  /** Seconds until the key may try again, or 0 when it may now. */
  blockedFor(keys: string[]): number {
    let wait = 0;
    for (const key of keys) {
      const list = this.recent(key);
      if (list.length >= this.max) wait = Math.max(wait, Math.ceil((list[0] + this.windowMs - this.now()) / 1000));
    }
    return wait;
  }

  fail(keys: string[]): void {
    for (const key of keys) {
      const list = this.recent(key);
      list.push(this.now());
      this.failures.set(key, list);
    }
    if (this.failures.size > 10_000) this.sweep();
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
