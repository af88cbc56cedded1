/**
 * Upload bytes the server takes in per turn of its event loop, across every upload under way.
 *
 * Node reads every connection that has data in each turn, and it accepts only one new connection
 * per turn. With a hundred phones uploading at once, one turn would parse, hash and queue
 * megabytes per connection, and a guest's gallery request, a status poll and every new
 * connection would wait for that turn to end. So each upload's next piece waits its turn here,
 * first come first served, up to TURN_BUDGET_BYTES per turn; meanwhile its connection's small
 * buffers fill and TCP holds the rest in the phone. An upload alone is not slowed: a turn with
 * nothing else to do is short, and it gets a whole budget.
 */
export const TURN_BUDGET_BYTES = 1024 * 1024;

const waiting: { bytes: number; go: () => void }[] = [];
let used = 0;
let scheduled = false;

/** Calls `go` once `bytes` fit in a turn's budget: now, or in a later turn after those before it. */
export function paceUploadBytes(bytes: number, go: () => void): void {
  schedule();
  if (waiting.length === 0 && used + bytes <= TURN_BUDGET_BYTES) {
    used += bytes;
    go();
  } else {
    waiting.push({ bytes, go });
  }
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(turn);
}

/** A new turn: a new budget, spent on those waiting first (at least one, however large). */
function turn(): void {
  scheduled = false;
  used = 0;
  while (waiting.length && (used === 0 || used + waiting[0].bytes <= TURN_BUDGET_BYTES)) {
    const next = waiting.shift()!;
    used += next.bytes;
    next.go();
  }
  if (used > 0 || waiting.length) schedule();
}
