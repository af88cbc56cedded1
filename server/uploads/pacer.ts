/**
 * Upload bytes the server takes in per turn of its event loop, across every upload under way.
 *
 * Each turn, Node reads whatever every connection has sent: with dozens of phones uploading
 * at once, one turn would parse, hash and queue megabytes per connection, and a guest's gallery
 * request, a status poll, even a new connection waiting to be accepted, waits for that turn to
 * end. Past the budget, a file part's next bytes wait for the next turn; the connection's
 * buffers fill and TCP holds the rest in the phone until then. Uploads still take every turn
 * nobody else needs, so an upload alone is not slowed.
 */
export const TURN_BUDGET_BYTES = 1024 * 1024;

let used = 0;
let resetting = false;

/** Counts `bytes` against this turn's budget; false once the turn has had its share. */
export function admitUploadBytes(bytes: number): boolean {
  used += bytes;
  if (!resetting) {
    resetting = true;
    setImmediate(() => {
      used = 0;
      resetting = false;
    });
  }
  return used <= TURN_BUDGET_BYTES;
}
