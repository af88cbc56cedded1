import { randomBytes } from 'node:crypto';
import { msSinceBusy } from './pacer.js';

/**
 * Upload bytes admitted at once: turns given and their requests not yet answered. A phone that
 * sends a chunk without waiting for a turn has it whole in the kernel's buffers within a moment,
 * "sent" as far as it can tell, and then waits while every other phone's bytes go to the disk
 * first: at a rush, seconds after its last byte. A phone that waits for its turn sends once the
 * server can take its bytes, so its answer comes soon after its last byte; the queue is before the
 * chunk, where nothing is yet sent. 16 MiB is three chunks: a fifth of a second of a slow disk.
 */
export const ADMITTED_BYTES = 16 * 1024 * 1024;

/**
 * Beyond that budget, one more turn is given while the server keeps up (no piece waited in the
 * pacer, the writes well under their cap), at most one every KEPT_UP_MS and not within KEPT_UP_MS
 * of a request coming in its turn (its bytes may be about to make the server busy): phones on a
 * slow network send slower than the disk takes, and the budget alone would keep the rest waiting.
 * At most UNCLAIMED_MAX turns wait for their requests at once: a phone on a poor network takes a
 * few round trips (a new connection) to come with its request, so one such turn at a time would
 * admit too few.
 */
export const KEPT_UP_MS = 50;
export const UNCLAIMED_MAX = 4;

/** A turn not used within this long is given back (the phone went away between its turn and its chunk). */
export const CLAIM_MS = 5_000;

/** A phone waits this long for its turn in one request; the answer then says to ask again. */
export const ASK_MS = 20_000;

/** Phones waiting for a turn at once, server-wide; beyond this the ask is refused with 503. */
export const MAX_WAITING = 2_000;

interface Asking {
  bytes: number;
  answer: (turn: string | null) => void;
}

interface Given {
  bytes: number;
  /** Set while the turn waits for its request; cleared when the request comes. */
  expiry?: NodeJS.Timeout;
}

/**
 * Turns for upload requests (GET /api/upload-turn, then the upload or chunk with `?turn=`): first
 * come, first served, as fast as the server takes the bytes in. A request without a turn is still
 * taken as before (an older page, a script); it just gets no place in the queue.
 */
export class UploadTurns {
  private asking: Asking[] = [];
  private given = new Map<string, Given>();
  private admitted = 0;
  /** Turns given whose requests have not come yet. */
  private unclaimed = 0;
  /** When the last turn beyond the budget was given, or the last request came in its turn. */
  private lastBeyond = -Infinity;

  /** When (performance.now()) the newest turn beyond the budget was given or a request came in its turn. */
  get lastBeyondAt(): number {
    return this.lastBeyond;
  }
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly limits = { admittedBytes: ADMITTED_BYTES, claimMs: CLAIM_MS, askMs: ASK_MS, maxWaiting: MAX_WAITING }) {}

  /** Phones waiting for a turn now. */
  waiting(): number {
    return this.asking.length;
  }

  /**
   * Waits for a turn for `bytes` (the request's size): the turn's token, or null when none came
   * within the ask time (ask again) or the server is closing. `onGone` is handed what to call if
   * the phone leaves first. Undefined when too many are waiting already.
   */
  ask(bytes: number, onGone: (leave: () => void) => void): Promise<string | null> | undefined {
    if (this.closed) return Promise.resolve(null);
    if (this.asking.length >= this.limits.maxWaiting) return undefined;
    return new Promise((resolve) => {
      const timeout = setTimeout(() => leave(null), this.limits.askMs);
      const me: Asking = {
        bytes: Math.max(0, bytes),
        answer: (turn) => {
          clearTimeout(timeout);
          resolve(turn);
        },
      };
      const leave = (turn: string | null) => {
        const i = this.asking.indexOf(me);
        if (i < 0) return;
        this.asking.splice(i, 1);
        me.answer(turn);
      };
      onGone(() => leave(null));
      this.asking.push(me);
      this.pump();
    });
  }

  /**
   * The request holding `token` has come: its turn is used. Returns what to call once the request
   * is answered (its bytes leave the budget), or undefined for a token not given or already used.
   */
  claim(token: string): (() => void) | undefined {
    const g = this.given.get(token);
    if (!g || !g.expiry) return undefined;
    clearTimeout(g.expiry);
    g.expiry = undefined;
    this.unclaimed--;
    this.lastBeyond = Math.max(this.lastBeyond, performance.now());
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.giveBack(token);
    };
  }

  /** Shutdown: everyone waiting is told to ask again (the restarted server, or nobody). */
  close(): void {
    this.closed = true;
    for (const a of this.asking.splice(0)) a.answer(null);
    for (const g of this.given.values()) clearTimeout(g.expiry);
    this.given.clear();
    this.unclaimed = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private giveBack(token: string): void {
    const g = this.given.get(token);
    if (!g) return;
    if (g.expiry) this.unclaimed--;
    clearTimeout(g.expiry);
    this.given.delete(token);
    this.admitted -= g.bytes;
    this.pump();
  }

  private give(a: Asking): void {
    const token = randomBytes(12).toString('base64url');
    const g: Given = { bytes: a.bytes };
    g.expiry = setTimeout(() => this.giveBack(token), this.limits.claimMs);
    this.given.set(token, g);
    this.unclaimed++;
    this.admitted += a.bytes;
    a.answer(token);
  }

  /** Gives turns while they fit; with phones still waiting, looks again shortly. */
  private pump(): void {
    while (this.asking.length && !this.closed) {
      const next = this.asking[0];
      const fits = this.admitted === 0 || this.admitted + next.bytes <= this.limits.admittedBytes;
      const now = performance.now();
      const keptUp = !fits && msSinceBusy(now) >= KEPT_UP_MS && now - this.lastBeyond >= KEPT_UP_MS && this.unclaimed < UNCLAIMED_MAX;
      if (!fits && !keptUp) break;
      if (keptUp) this.lastBeyond = now;
      this.asking.shift();
      this.give(next);
    }
    if (this.asking.length && !this.timer && !this.closed) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, KEPT_UP_MS / 2);
    }
  }
}
