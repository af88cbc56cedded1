/** One holder at a time per key; later callers queue in order (a client retrying a chunk may overlap its first try). */
export class KeyLock {
  private readonly tails = new Map<string, Promise<void>>();

  /** Resolves once the key is free, with the function that frees it again. */
  async acquire(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
