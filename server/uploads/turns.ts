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

/**
 * The largest request the page sends: a 5 MiB chunk, or a whole file of up to 5 MiB in one
 * request (client/uploads/constants.ts CHUNK_SIZE), and around it the form's fields and part
 * headers, which ENVELOPE_BYTES holds with room to spare. A turn is asked for the file's or the
 * chunk's bytes; its request may be that much plus the envelope, and a request larger than that
 * loses its turn (it is taken as one sent without a turn). Nobody may ask for more: a turn for
 * gigabytes would keep every other phone waiting while its bytes come.
 */
export const PAGE_REQUEST_BYTES = 5 * 1024 * 1024;
export const ENVELOPE_BYTES = 64 * 1024;
export const MAX_TURN_BYTES = PAGE_REQUEST_BYTES + ENVELOPE_BYTES;

/**
 * Turns and asks one client address holds at once, used or not (a turn counts until its request
 * is answered or it is given back). A phone sends at most three files at a time; the guests on a
 * venue's Wi-Fi share an address, and the phones past this cap send without a turn, taken as
 * before.
 */
export const TURNS_PER_ADDRESS = 8;

/**
 * How long a turn waiting for its request keeps its bytes in the budget (and its place among the
 * UNCLAIMED_MAX): long enough for a phone on a poor network to open a connection and begin. Past
 * this it may still be used until CLAIM_MS, its bytes counted again from then, but it no longer
 * holds anyone back: asks that are never used cost the other phones at most this long.
 */
export const HOLD_MS = 2_000;

export interface TurnLimits {
  admittedBytes: number;
  claimMs: number;
  askMs: number;
  maxWaiting: number;
  holdMs: number;
  perAddress: number;
}

const DEFAULT_LIMITS: TurnLimits = {
  admittedBytes: ADMITTED_BYTES,
  claimMs: CLAIM_MS,
  askMs: ASK_MS,
  maxWaiting: MAX_WAITING,
  holdMs: HOLD_MS,
  perAddress: TURNS_PER_ADDRESS,
};

interface Asking {
  bytes: number;
  address: string;
  answer: (turn: string | null) => void;
}

interface Given {
  bytes: number;
  address: string;
  /** Set while the turn waits for its request; cleared when the request comes. */
  expiry?: NodeJS.Timeout;
  /** Its bytes are in `admitted` (and, while unclaimed, it is one of `unclaimed`). */
  counted: boolean;
  /** Ends the hold of a turn whose request has not come (HOLD_MS). */
  hold?: NodeJS.Timeout;
}

/**
 * Turns for upload requests (GET /api/upload-turn, then the upload or chunk with `?turn=`), as
 * fast as the server takes the bytes in. The next turn goes to the phone whose address holds the
 * fewest turns, first come first served among equals: a client asking for many turns (used or
 * not) never has the others wait behind its queue. A request without a turn is still taken as
 * before (an older page, a script); it just gets no place in the queue.
 */
export class UploadTurns {
  private asking: Asking[] = [];
  private given = new Map<string, Given>();
  private admitted = 0;
  /** Turns given whose requests have not come yet, while they hold their bytes. */
  private unclaimed = 0;
  /** Asks and turns per client address (until the ask ends without a turn or the turn is given back). */
  private readonly heldBy = new Map<string, number>();
  /** Turns given per client address, not yet given back. */
  private readonly givenTo = new Map<string, number>();
  /** When the last turn beyond the budget was given, or the last request came in its turn. */
  private lastBeyond = -Infinity;
  private readonly limits: TurnLimits;

  /** When (performance.now()) the newest turn beyond the budget was given or a request came in its turn. */
  get lastBeyondAt(): number {
    return this.lastBeyond;
  }
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(limits: Partial<TurnLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Phones waiting for a turn now. */
  waiting(): number {
    return this.asking.length;
  }

  /** True when `address` holds as many asks and turns as it may: a new ask is refused (429). */
  full(address: string): boolean {
    return (this.heldBy.get(address) ?? 0) >= this.limits.perAddress;
  }

  /**
   * Waits for a turn for `bytes` (the request's size): the turn's token, or null when none came
   * within the ask time (ask again) or the server is closing. `onGone` is handed what to call if
   * the phone leaves first. Undefined when too many are waiting already, or when `address` holds
   * its most asks and turns (see `full`).
   */
  ask(bytes: number, onGone: (leave: () => void) => void, address = ''): Promise<string | null> | undefined {
    if (this.closed) return Promise.resolve(null);
    if (this.asking.length >= this.limits.maxWaiting || this.full(address)) return undefined;
    this.count(this.heldBy, address, +1);
    return new Promise((resolve) => {
      const timeout = setTimeout(() => leave(null), this.limits.askMs);
      const me: Asking = {
        bytes: Math.max(0, bytes),
        address,
        answer: (turn) => {
          clearTimeout(timeout);
          if (turn === null) this.count(this.heldBy, address, -1);
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
   * The request holding `token` has come, `requestBytes` long (Infinity when it does not say): its
   * turn is used. Returns what to call once the request is answered (its bytes leave the budget),
   * or undefined for a token not given or already used, and for a request larger than its turn's
   * bytes and their envelope, which loses the turn.
   */
  claim(token: string, requestBytes = 0): (() => void) | undefined {
    const g = this.given.get(token);
    if (!g || !g.expiry) return undefined;
    if (!(requestBytes <= g.bytes + ENVELOPE_BYTES)) {
      this.giveBack(token);
      return undefined;
    }
    clearTimeout(g.expiry);
    clearTimeout(g.hold);
    g.expiry = undefined;
    if (g.counted) this.unclaimed--;
    else {
      // Past its hold: its bytes count again while the request is read.
      g.counted = true;
      this.admitted += g.bytes;
    }
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
    for (const g of this.given.values()) {
      clearTimeout(g.expiry);
      clearTimeout(g.hold);
    }
    this.given.clear();
    this.heldBy.clear();
    this.givenTo.clear();
    this.unclaimed = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private count(map: Map<string, number>, address: string, by: number): void {
    const n = (map.get(address) ?? 0) + by;
    if (n > 0) map.set(address, n);
    else map.delete(address);
  }

  private giveBack(token: string): void {
    const g = this.given.get(token);
    if (!g) return;
    if (g.expiry && g.counted) this.unclaimed--;
    clearTimeout(g.expiry);
    clearTimeout(g.hold);
    this.given.delete(token);
    if (g.counted) this.admitted -= g.bytes;
    this.count(this.heldBy, g.address, -1);
    this.count(this.givenTo, g.address, -1);
    this.pump();
  }

  /** A turn still waiting for its request after HOLD_MS: its bytes no longer keep anyone waiting. */
  private release(token: string): void {
    const g = this.given.get(token);
    if (!g || !g.expiry || !g.counted) return;
    g.counted = false;
    this.unclaimed--;
    this.admitted -= g.bytes;
    this.pump();
  }

  private give(a: Asking): void {
    const token = randomBytes(12).toString('base64url');
    const g: Given = { bytes: a.bytes, address: a.address, counted: true };
    g.expiry = setTimeout(() => this.giveBack(token), this.limits.claimMs);
    if (this.limits.holdMs < this.limits.claimMs) g.hold = setTimeout(() => this.release(token), this.limits.holdMs);
    this.given.set(token, g);
    this.count(this.givenTo, a.address, +1);
    this.unclaimed++;
    this.admitted += a.bytes;
    a.answer(token);
  }

  /** The ask to answer next: of the address holding the fewest turns, the earliest. */
  private nextIndex(): number {
    let best = 0;
    let fewest = Infinity;
    for (let i = 0; i < this.asking.length && fewest > 0; i++) {
      const n = this.givenTo.get(this.asking[i].address) ?? 0;
      if (n < fewest) [best, fewest] = [i, n];
    }
    return best;
  }

  /** Gives turns while they fit; with phones still waiting, looks again shortly. */
  private pump(): void {
    while (this.asking.length && !this.closed) {
      const i = this.nextIndex();
      const next = this.asking[i];
      const fits = this.admitted === 0 || this.admitted + next.bytes <= this.limits.admittedBytes;
      const now = performance.now();
      const keptUp = !fits && msSinceBusy(now) >= KEPT_UP_MS && now - this.lastBeyond >= KEPT_UP_MS && this.unclaimed < UNCLAIMED_MAX;
      if (!fits && !keptUp) break;
      if (keptUp) this.lastBeyond = now;
      this.asking.splice(i, 1);
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
