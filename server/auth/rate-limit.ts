/**
 * Counts sign-in attempts per key (a username or a client address) in a sliding window.
 * An attempt is counted when it starts, before its password is checked, so attempts sent in
 * parallel cannot all slip under the limit; a successful one is forgiven afterwards.
 * Kept in memory: a restart forgetting them errs on the side of the family member. The
 * memory is bounded: at most `maxKeys` keys, each holding at most `max` timestamps.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly max = 10,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
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

  /**
   * Counts an attempt for every key unless one of them is blocked; synchronous, so two attempts
   * can never both see the last free slot. Returns the wait in seconds (0: the attempt may go on).
   */
  attempt(keys: string[]): number {
    const wait = this.blockedFor(keys);
    if (wait === 0) this.fail(keys);
    return wait;
  }

  fail(keys: string[]): void {
    const at = this.now();
    for (const key of keys) {
      const list = this.recent(key);
      list.push(at);
      // Re-inserted last: the map's order is then oldest activity first, which eviction relies on.
      this.failures.delete(key);
      this.failures.set(key, list);
    }
    if (this.failures.size > this.maxKeys) this.sweep();
  }

  /** Takes back the attempt `attempt` counted (the password was right: successes do not count). */
  forgive(keys: string[]): void {
    for (const key of keys) {
      const list = this.failures.get(key);
      if (!list) continue;
      list.pop();
      if (list.length === 0) this.failures.delete(key);
    }
  }

  /** Keys tracked now (memory checks). */
  get size(): number {
    return this.failures.size;
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
    // Still too many live keys (a spray of usernames): forget the least recently tried, those not
    // blocked first, so a spray cannot wipe out a block. Down to 90%, so sweeps stay rare.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const spareBlocked of [true, false]) {
      for (const [key, list] of this.failures) {
        if (this.failures.size <= target) return;
        if (!spareBlocked || list.length < this.max) this.failures.delete(key);
      }
    }
  }
}
