import { Rotation } from './rotation';
import { isMessage, isVideo, type WallItem } from './types';

export interface Slide {
  /** New for every showing, so React makes fresh elements (and a video starts over). */
  key: number;
  item: WallItem;
}

export interface WallState {
  current: Slide | null;
  /** The slide fading out under the current one; gone once the crossfade ends. */
  previous: Slide | null;
  /** Slides shown since the page opened (the long-run check reads it). */
  shown: number;
  /** Loaded, and there is nothing visible to show. */
  empty: boolean;
}

export interface PlayerOptions {
  /** How long a photo stays up. */
  intervalMs: number;
  /** The crossfade's length; the outgoing slide is removed after it. */
  fadeMs: number;
  /** A video that never reports its end (stalled stream) is left after this. */
  videoMaxMs: number;
  /** Fetches and decodes a photo before it is shown, so the crossfade never shows a half-drawn image. */
  preload(item: WallItem): Promise<void>;
  max?: number;
  /**
   * A slide ends early for a photo that just became visible, once it has been up this long
   * (default 3 s, or the interval when shorter): a new photo shows within seconds, and a burst
   * of arrivals is queued, each up at least this long, rather than flickered through.
   */
  minShowMs?: number;
}

/**
 * Runs the slideshow: one timer to the next slide, one to end the crossfade. Everything async
 * carries a generation number, so a late preload never shows a slide out of turn; dispose()
 * clears every timer.
 */
export class WallPlayer {
  readonly rotation: Rotation;
  readonly fadeMs: number;
  private state: WallState = { current: null, previous: null, shown: 0, empty: false };
  private listeners = new Set<() => void>();
  private advanceTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the advance timer fires, and when the current slide went up (Date.now()). */
  private dueAt = Infinity;
  private shownAt = 0;
  private fadeTimer: ReturnType<typeof setTimeout> | undefined;
  private gen = 0;
  private key = 0;
  private started = false;
  private disposed = false;
  /** Held while another layout or the curtain is up: no timers, no preloads. */
  private held = false;
  /** What was shown before, newest last (ids), for the remote's "previous". */
  private history: string[] = [];
  /** The item to show on the next advance in place of the rotation's (previous / show now). */
  private forced: WallItem | null = null;
  /** The forced item is a step back: the slide it replaces is not recorded. */
  private back = false;

  constructor(private readonly opts: PlayerOptions) {
    this.rotation = new Rotation(opts.max);
    this.fadeMs = opts.fadeMs;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getState = (): WallState => this.state;

  /** The list from the server (first load or a refresh); starts the show once there is something. */
  setItems(items: readonly WallItem[]): void {
    this.rotation.replace(items, this.state.current?.item.id);
    this.set({ ...this.state, empty: this.rotation.size === 0 });
    const cur = this.state.current;
    if (cur && !this.rotation.has(cur.item.id)) this.advance();
    else if (!cur || !this.started) this.start();
  }

  add(item: WallItem): void {
    this.rotation.add(item);
    if (this.state.empty) this.set({ ...this.state, empty: false });
    // An empty wall shows a new photo at once; otherwise it comes up next, soon.
    if (!this.state.current) return this.start();
    // No timer while the next slide is loading: show() then keeps that one up only briefly.
    if (this.dueAt === Infinity) return;
    const wait = Math.max(0, this.shownAt + this.minShowMs() - Date.now());
    if (this.dueAt > Date.now() + wait) this.schedule(wait);
  }

  private minShowMs(): number {
    return Math.min(this.opts.minShowMs ?? 3000, this.opts.intervalMs);
  }

  /** How long a slide stays up: `ms`, or only the minimum while arrivals wait their turn. */
  private slideMs(ms: number): number {
    return this.rotation.queued > 0 ? Math.min(ms, this.minShowMs()) : ms;
  }

  remove(id: string): void {
    this.rotation.remove(id);
    const { current, previous } = this.state;
    const empty = this.rotation.size === 0;
    // A photo an admin hid goes at once, without a fade.
    if (previous?.item.id === id || current?.item.id === id || empty !== this.state.empty) {
      this.set({
        ...this.state,
        current: current?.item.id === id ? null : current,
        previous: previous?.item.id === id ? null : previous,
        empty,
      });
    }
    if (current?.item.id === id) void this.advance();
  }

  /** A video finished, or a photo or video could not be shown: move on. */
  ended = (key: number): void => {
    if (this.state.current?.key === key) this.advance();
  };

  failed = (key: number): void => {
    if (this.state.current?.key !== key) return;
    // Not at once: a wall of broken files must not spin.
    this.schedule(Math.min(this.opts.intervalMs, 2000));
  };

  /** A video knows its length: wait for it to end, with a margin, instead of the general cap. */
  videoDuration = (key: number, seconds: number): void => {
    if (this.state.current?.key !== key || !Number.isFinite(seconds) || seconds <= 0) return;
    const left = this.slideMs(Math.min(seconds * 1000 + 5000, this.opts.videoMaxMs)) - (Date.now() - this.shownAt);
    this.schedule(Math.max(0, left));
  };

  /** The remote's "next": the next slide now. */
  next(): void {
    if (!this.held) void this.advance();
  }

  /** The remote's "previous": the slide shown before the current one, when it is still visible. */
  previous(): void {
    while (this.history.length) {
      const id = this.history.pop()!;
      const item = this.rotation.get(id);
      if (!item) continue;
      this.forced = item;
      this.back = true;
      if (!this.held) void this.advance();
      return;
    }
  }

  /** The remote's "show this photo now": up at once (the cycle carries on after it); false when the wall does not have it. */
  showNow(id: string): boolean {
    const item = this.rotation.get(id);
    if (!item) return false;
    this.forced = item;
    if (!this.held) void this.advance();
    return true;
  }

  /** Another layout or the curtain is up: the slideshow stops (no timer, no preload) until released. */
  hold(on: boolean): void {
    if (on === this.held) return;
    this.held = on;
    if (on) {
      this.gen++;
      clearTimeout(this.advanceTimer);
      this.dueAt = Infinity;
    } else if (this.started) void this.advance();
  }

  dispose(): void {
    this.disposed = true;
    this.gen++;
    clearTimeout(this.advanceTimer);
    clearTimeout(this.fadeTimer);
    this.listeners.clear();
  }

  private start(): void {
    this.started = true;
    void this.advance();
  }

  private schedule(ms: number): void {
    clearTimeout(this.advanceTimer);
    this.dueAt = Date.now() + ms;
    this.advanceTimer = setTimeout(() => void this.advance(), ms);
  }

  private async advance(): Promise<void> {
    clearTimeout(this.advanceTimer);
    this.dueAt = Infinity;
    if (this.disposed || this.held) return;
    const gen = ++this.gen;
    // "Show this photo now" stays asked for until a slide shows it: an advance that a newer one
    // overtakes while its picture loads must not take the request with it.
    const forced = this.forced;
    const item = forced ?? this.rotation.next();
    const done = () => {
      if (forced && this.forced === forced) this.forced = null;
    };
    const cur = this.state.current;
    if (!item) {
      done();
      if (cur) this.show(null);
      return;
    }
    // A single photo stays up rather than fading into itself.
    if (!forced && cur && cur.item.id === item.id && !isVideo(item) && this.rotation.has(cur.item.id)) {
      this.schedule(this.opts.intervalMs);
      return;
    }
    let ok = true;
    if (!isVideo(item)) ok = await this.opts.preload(item).then(() => true, () => false);
    if (gen !== this.gen || this.disposed) return;
    done();
    if (!this.rotation.has(item.id)) return this.advance();
    if (!ok) {
      this.schedule(Math.min(this.opts.intervalMs, 2000));
      return;
    }
    this.show(item);
  }

  private show(item: WallItem | null): void {
    const outgoing = this.state.current;
    // Going back does not record the slide it leaves, so "previous" pressed again goes further back.
    if (outgoing && !this.back && outgoing.item.id !== item?.id) {
      this.history.push(outgoing.item.id);
      if (this.history.length > 50) this.history.shift();
    }
    this.back = false;
    const current = item ? { key: ++this.key, item } : null;
    this.shownAt = Date.now();
    this.set({ current, previous: outgoing, shown: this.state.shown + (item ? 1 : 0), empty: this.rotation.size === 0 });
    clearTimeout(this.fadeTimer);
    this.fadeTimer = setTimeout(() => this.set({ ...this.state, previous: null }), this.opts.fadeMs);
    if (item) this.schedule(this.slideMs(this.upFor(item)));
  }

  /** A photo's interval; a video until it ends (capped); a message long enough to read, at most three intervals. */
  private upFor(item: WallItem): number {
    if (isVideo(item)) return this.opts.videoMaxMs;
    if (!isMessage(item)) return this.opts.intervalMs;
    const reading = this.opts.intervalMs + Math.max(0, item.message.length - 120) * 40;
    return Math.min(reading, 3 * this.opts.intervalMs);
  }

  private set(next: WallState): void {
    this.state = next;
    for (const fn of this.listeners) fn();
  }
}
