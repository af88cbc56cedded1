import type { WallControls, WallLayout, WallSeen } from '../../common/api-types.js';

/** A wall not heard from for this long is shown as lost. */
export const LOST_AFTER_MS = 60_000;
/** Walls not heard from for this long leave the list. */
export const FORGET_AFTER_MS = 2 * 60_000;
/** The most walls remembered at once (the heartbeat is public: a flood cannot grow the list). */
const MAX_WALLS = 50;

export interface Heartbeat extends WallControls {
  id: string;
  showing: string | null;
}

/**
 * The open walls as their heartbeats last told, in memory: a restart forgets them, and each
 * open wall is back within one heartbeat.
 */
export class WallRegistry {
  private readonly seen = new Map<string, Heartbeat & { at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  report(beat: Heartbeat): void {
    const at = this.now();
    this.seen.delete(beat.id);
    this.seen.set(beat.id, { ...beat, at });
    this.forget(at);
    // The longest silent goes first (a Map keeps insertion order, and every report re-inserts).
    while (this.seen.size > MAX_WALLS) this.seen.delete(this.seen.keys().next().value!);
  }

  /** The walls seen in the last 2 minutes, most recently heard first. */
  list(): WallSeen[] {
    const now = this.now();
    this.forget(now);
    return [...this.seen.values()].reverse().map((w) => ({
      id: w.id,
      last_seen: new Date(w.at).toISOString(),
      showing: w.showing,
      layout: w.layout as WallLayout,
      blank: w.blank,
      paused: w.paused,
      lost: now - w.at > LOST_AFTER_MS,
    }));
  }

  private forget(now: number): void {
    for (const [id, w] of this.seen) if (now - w.at > FORGET_AFTER_MS) this.seen.delete(id);
  }
}
