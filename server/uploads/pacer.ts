import type { BodyProgress } from '../http/multipart.js';

/**
 * Upload bytes the server takes in per turn of its event loop, across every upload under way.
 *
 * Node reads every connection that has data in each turn, and it accepts only one new connection
 * per turn. With a hundred phones uploading at once, one turn would parse, hash and queue
 * megabytes per connection, and a guest's gallery request, a status poll and every new
 * connection would wait for that turn to end. So each upload's next piece waits its turn here,
 * up to TURN_BUDGET_BYTES per turn; meanwhile its connection's small buffers fill and TCP holds
 * the rest in the phone. An upload alone is not slowed: a turn with nothing else to do is short,
 * and it gets a whole budget.
 */
export const TURN_BUDGET_BYTES = 1024 * 1024;

/**
 * Upload bytes handed to the file system and not yet written. Beyond this nothing more is taken
 * in until writes complete: bytes are admitted at the rate the disk takes them, and the rest wait
 * in the phones' connections instead of in the server's memory or its thread pool's queue.
 */
export const WRITING_CAP_BYTES = 16 * 1024 * 1024;

/**
 * Which upload goes first. A phone waits for its answer from the moment its last byte is in its
 * kernel's send buffer, and that buffer plus the server's receive window hold megabytes (Linux
 * grows a send buffer to 4 MiB, tcp_wmem's largest). So a request with at most SENT_WHOLE_BYTES
 * still to read has probably been sent whole: its phone waits. Such requests go first, in the
 * order their phones began to wait, so each is read to its end instead of waiting behind every
 * other upload's bytes.
 *
 * The others' phones are still sending, and holding them back costs those phones nothing yet:
 * they share what a turn has left, the fewest bytes still to come first, less 1 KiB for every
 * millisecond since their request began (1 MiB a second), so none waits for ever. The one read
 * first soon has its phone waiting and goes first from then on.
 */
export const SENT_WHOLE_BYTES = 4 * 1024 * 1024;
export const AGE_BYTES_PER_MS = 1024;

/**
 * Subtracted from a waiting phone's time (ms) to rank it below every other request: larger than
 * any request's bytes less its age, small enough that a millisecond still counts.
 */
const WAITING_FIRST = 1e13;

/**
 * Bytes a request may take in without queueing again, once the pacer has picked it: its next
 * pieces go straight on, in the turn that reads them. Node hands each connection's bytes on in
 * 64 KiB pieces and the streams between it and the file hold only a few, so a request picked one
 * piece at a time would come in at one piece per turn, and finishing a 4 MiB chunk would take a
 * hundred turns whatever its rank. With this credit the request picked first takes a turn's
 * whole budget: one phone's answer after another, each as soon as the disk allows, instead of
 * every waiting phone's answer late. Counted in the budget of the turn that grants it, and lost
 * at the next turn if the bytes have not come.
 */
export const CREDIT_BYTES = TURN_BUDGET_BYTES;

/** What each picked request may still take in, and in which turn it was given. */
const credit = new WeakMap<BodyProgress, { bytes: number; turn: number }>();
let turnNumber = 0;

/** When each request was first seen with at most SENT_WHOLE_BYTES to read. */
const sentWholeAt = new WeakMap<BodyProgress, number>();

interface Waiting {
  bytes: number;
  go: () => void;
  body?: BodyProgress;
  since: number;
}

const waiting: Waiting[] = [];
/** When a piece last had to wait, or the writes last stood at a quarter of their cap or more. */
let busyAt = -Infinity;
let used = 0;
let writing = 0;
let writingPeak = 0;
let scheduled = false;

/** Calls `go` once `bytes` fit in a turn's budget and under the writing cap: now, or in a later turn. */
export function paceUploadBytes(bytes: number, go: () => void, body?: BodyProgress): void {
  schedule();
  const c = body && credit.get(body);
  if (c && c.turn === turnNumber && c.bytes > 0 && writing < WRITING_CAP_BYTES) {
    c.bytes -= bytes;
    return go();
  }
  if (waiting.length === 0 && used + bytes <= TURN_BUDGET_BYTES && writing < WRITING_CAP_BYTES) {
    used += bytes;
    go();
  } else {
    busyAt = performance.now();
    waiting.push({ bytes, go, body, since: busyAt });
  }
}

/**
 * Milliseconds since the server last fell behind the upload bytes coming in (a piece waited its
 * turn, or the writes stood at a quarter of their cap). Long: whatever is being sent is read as it
 * comes, and the disk keeps up (uploads/turns.ts admits more then).
 */
export function msSinceBusy(now = performance.now()): number {
  if (waiting.length || writing >= WRITING_CAP_BYTES / 4) busyAt = now;
  return now - busyAt;
}

/** Upload bytes handed to the file system (counted until `writeEnded`). */
export function writeStarted(bytes: number): void {
  writing += bytes;
  if (writing >= WRITING_CAP_BYTES / 4) busyAt = performance.now();
  writingPeak = Math.max(writingPeak, writing);
}

export function writeEnded(bytes: number): void {
  writing -= bytes;
  if (waiting.length && writing < WRITING_CAP_BYTES) schedule();
}

/** Bytes being written now, and the most at once since the last reset (for tests and probes). */
export function writingBytes(resetPeak = false): { now: number; peak: number } {
  const out = { now: writing, peak: writingPeak };
  if (resetPeak) writingPeak = writing;
  return out;
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

/** Lower goes first: every request whose phone waits (by when it began to) before any other. */
function rank(w: Waiting, now: number): number {
  const body = w.body;
  if (!body) return -Number.MAX_SAFE_INTEGER;
  const left = body.remaining();
  if (left <= SENT_WHOLE_BYTES) {
    let at = sentWholeAt.get(body);
    if (at === undefined) sentWholeAt.set(body, (at = now));
    return at - WAITING_FIRST;
  }
  return left - (now - body.since) * AGE_BYTES_PER_MS;
}

/** A new turn: a new budget, spent on the best ranked first (at least one, however large). */
function turn(): void {
  scheduled = false;
  used = 0;
  turnNumber++;
  const now = performance.now();
  while (waiting.length && writing < WRITING_CAP_BYTES) {
    let best = 0;
    let bestRank = rank(waiting[0], now);
    for (let i = 1; i < waiting.length; i++) {
      const r = rank(waiting[i], now);
      if (r < bestRank) [best, bestRank] = [i, r];
    }
    const next = waiting[best];
    if (used > 0 && used + next.bytes > TURN_BUDGET_BYTES) break;
    waiting.splice(best, 1);
    used += next.bytes;
    if (next.body) {
      const more = Math.max(0, Math.min(CREDIT_BYTES, TURN_BUDGET_BYTES - used));
      credit.set(next.body, { bytes: more, turn: turnNumber });
      used += more;
    }
    next.go();
  }
  // Blocked by the writing cap: writeEnded schedules the next turn.
  if (used > 0 || (waiting.length && writing < WRITING_CAP_BYTES)) schedule();
}
