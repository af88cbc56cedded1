import type { WallItem } from './types';

/**
 * The wall's playlist: the newest `max` items, cycled in order, with new arrivals queued to be
 * shown next. Bounded, so a wall left on for a whole reception holds a fixed amount.
 */
export class Rotation {
  private items: WallItem[] = [];
  private upNext: string[] = [];
  private cursor = 0;

  constructor(readonly max = 500) {}

  get size(): number {
    return this.items.length;
  }

  get queued(): number {
    return this.upNext.length;
  }

  has(id: string): boolean {
    return this.items.some((i) => i.id === id);
  }

  get(id: string): WallItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  /** A fresh list (newest first); the cycle carries on after `currentId` when it is still there. */
  replace(items: readonly WallItem[], currentId?: string): void {
    const seen = new Set<string>();
    this.items = items.filter((i) => !seen.has(i.id) && seen.add(i.id)).slice(0, this.max);
    this.upNext = this.upNext.filter((id) => this.has(id));
    const at = currentId === undefined ? -1 : this.items.findIndex((i) => i.id === currentId);
    this.cursor = at + 1 >= this.items.length ? 0 : at + 1;
  }

  /** A photo that just became visible: it joins the list and is shown next, before the cycle continues. */
  add(item: WallItem): void {
    const at = this.items.findIndex((i) => i.id === item.id);
    if (at >= 0) {
      this.items[at] = item;
    } else {
      this.items.unshift(item);
      if (this.items.length > 1) this.cursor += 1;
      while (this.items.length > this.max) this.dropAt(this.items.length - 1);
    }
    if (!this.upNext.includes(item.id)) this.upNext.push(item.id);
  }

  /** A photo that was hidden or deleted; true when it was in the list. */
  remove(id: string): boolean {
    this.upNext = this.upNext.filter((x) => x !== id);
    const at = this.items.findIndex((i) => i.id === id);
    if (at < 0) return false;
    this.dropAt(at);
    return true;
  }

  /** The next item to show: queued arrivals first, then the cycle. */
  next(): WallItem | null {
    while (this.upNext.length) {
      const id = this.upNext.shift()!;
      const item = this.items.find((i) => i.id === id);
      if (item) return item;
    }
    if (!this.items.length) return null;
    if (this.cursor >= this.items.length) this.cursor = 0;
    const item = this.items[this.cursor];
    this.cursor = (this.cursor + 1) % this.items.length;
    return item;
  }

  private dropAt(at: number): void {
    const [gone] = this.items.splice(at, 1);
    this.upNext = this.upNext.filter((x) => x !== gone.id);
    if (at < this.cursor) this.cursor -= 1;
    if (this.cursor >= this.items.length) this.cursor = 0;
  }
}
