// Turns for upload requests (uploads/turns.ts): a phone asks GET /api/upload-turn and sends its
// upload or chunk with ?turn= once it has one, so the bytes admitted at once stay within what the
// server takes in and a chunk's answer follows its last byte. First come, first served; a turn
// not used is given back; a request without a turn is still taken.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { writeEnded, writeStarted, WRITING_CAP_BYTES } from '../../server/uploads/pacer.js';
import { CLAIM_MS, ENVELOPE_BYTES, KEPT_UP_MS, UNCLAIMED_MAX, UploadTurns } from '../../server/uploads/turns.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile } from '../helpers/uploads.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;
// holdMs as long as claimMs: a turn not used holds its bytes until it is given back (see the hold's own test).
const limits = (over: Partial<ConstructorParameters<typeof UploadTurns>[0]> = {}) => ({ admittedBytes: 10 * MiB, claimMs: 5_000, askMs: 20_000, maxWaiting: 100, holdMs: 60_000, ...over });

/** Waits until `cond` holds (a loaded machine may run timers late), failing after `ms`. */
async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = performance.now() + ms;
  while (!cond()) {
    if (performance.now() > end) assert.fail(`still not: ${what}`);
    await sleep(5);
  }
}

/**
 * An ask and what became of it so far: the turn, and when the server gave it as a turn beyond the
 * budget (its own clock: when this process sees the answer depends on what else it runs).
 */
function ask(turns: UploadTurns, bytes: number, address = '') {
  const out: { turn?: string | null; at?: number; leave?: () => void; answeredAt?: number } = {};
  const p = turns.ask(bytes, (leave) => (out.leave = leave), address);
  assert.ok(p, 'the ask is taken');
  void p.then((t) => {
    out.turn = t;
    out.at = turns.lastBeyondAt;
    out.answeredAt = performance.now();
  });
  return out;
}

/** The server falls behind (the writes over a quarter of their cap) until the returned function is called. */
function behind(): () => void {
  writeStarted(WRITING_CAP_BYTES / 2);
  return () => writeEnded(WRITING_CAP_BYTES / 2);
}

test('turns are given first come, first served within the admitted bytes; a used turn given back lets the next in', async () => {
  const caughtUp = behind();
  const turns = new UploadTurns(limits());
  try {
    const a = ask(turns, 5 * MiB);
    const b = ask(turns, 5 * MiB);
    const c = ask(turns, 5 * MiB);
    await until(() => a.turn !== undefined && b.turn !== undefined, 'a and b have turns');
    assert.equal(typeof a.turn, 'string');
    assert.notEqual(a.turn, b.turn);
    await sleep(4 * KEPT_UP_MS);
    assert.equal(c.turn, undefined, 'a third 5 MiB is over the 10 MiB admitted while the server is behind');
    assert.equal(turns.waiting(), 1);
    const giveBack = turns.claim(a.turn!);
    assert.ok(giveBack, 'a turn given is used once');
    assert.equal(turns.claim(a.turn!), undefined, 'and not twice');
    assert.equal(turns.claim('made-up'), undefined, 'a token never given is no turn');
    await sleep(2 * KEPT_UP_MS);
    assert.equal(c.turn, undefined, 'a request under way still holds its bytes');
    giveBack();
    await until(() => c.turn !== undefined, 'c has its turn');
    assert.equal(typeof c.turn, 'string', 'the request answered gives its bytes back: the next phone goes');
  } finally {
    caughtUp();
    turns.close();
  }
});

test('beyond the budget, one more turn every 50 ms while the server keeps up, at most 4 waiting for their requests; none while it is behind', async () => {
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB }));
  let caughtUp = behind();
  try {
    const a = ask(turns, 5 * MiB);
    await until(() => a.turn !== undefined, 'a has its turn');
    turns.claim(a.turn!); // a's request came and is being read (a slow phone)
    const more = Array.from({ length: UNCLAIMED_MAX + 2 }, () => ask(turns, 5 * MiB));
    await sleep(4 * KEPT_UP_MS);
    assert.equal(more.filter((m) => m.turn !== undefined).length, 0, 'behind: the others wait for bytes given back');
    caughtUp();
    caughtUp = () => {};
    const given = () => more.filter((m) => m.turn !== undefined);
    await until(() => given().length === UNCLAIMED_MAX, 'four turns beyond the budget');
    await sleep(4 * KEPT_UP_MS);
    assert.equal(given().length, UNCLAIMED_MAX, 'no more while four turns wait for their requests');
    const at = given().map((m) => m.at!);
    for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] >= KEPT_UP_MS - 1, `a turn every 50 ms at most: ${at.map((t) => (t - at[0]).toFixed(0)).join(', ')}`);
    turns.claim(more[0].turn!);
    await until(() => given().length === UNCLAIMED_MAX + 1, 'one request came: one more turn');
    await sleep(4 * KEPT_UP_MS);
    assert.equal(more.at(-1)!.turn, undefined);
  } finally {
    caughtUp();
    turns.close();
  }
});

test('a turn not used is given back after the claim time; a phone that leaves leaves the queue', async () => {
  const caughtUp = behind();
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB, claimMs: 300, maxWaiting: 2 }));
  try {
    const a = ask(turns, 5 * MiB);
    const b = ask(turns, 5 * MiB);
    const c = ask(turns, 5 * MiB);
    assert.equal(turns.ask(1, () => {}), undefined, 'a is going and b and c wait: a third waiting is over maxWaiting, refused');
    await until(() => a.turn !== undefined, 'a has its turn');
    assert.equal(b.turn, undefined);
    await until(() => b.turn !== undefined, "a's turn was never used: given back, b goes");
    assert.equal(typeof b.turn, 'string');
    assert.equal(turns.claim(a.turn!), undefined, 'a turn given back cannot be used any more');
    c.leave!(); // c's phone went away before its turn
    await until(() => c.turn !== undefined, 'c is answered');
    assert.equal(c.turn, null);
    assert.equal(turns.waiting(), 0);
  } finally {
    caughtUp();
    turns.close();
  }
});

test('an ask without a turn in its time is answered "ask again"; close answers everyone waiting', async () => {
  const caughtUp = behind();
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB, askMs: 300 }));
  try {
    const a = ask(turns, 5 * MiB);
    const b = ask(turns, 5 * MiB);
    await until(() => b.turn !== undefined, 'b is answered');
    assert.equal(typeof a.turn, 'string');
    assert.equal(b.turn, null, 'no turn within the ask time: the answer says ask again');
    const c = ask(turns, 5 * MiB);
    turns.close();
    await until(() => c.turn !== undefined, 'c is answered');
    assert.equal(c.turn, null, 'closing: everyone waiting is answered');
    assert.equal(await turns.ask(1, () => {}), null, 'after close: no turns');
  } finally {
    caughtUp();
    turns.close();
  }
});

test('a request larger than its turn (and the envelope of its form) loses the turn; its bytes are given back at once', async () => {
  const caughtUp = behind();
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB }));
  try {
    const a = ask(turns, 5 * MiB);
    const b = ask(turns, 5 * MiB);
    await until(() => a.turn !== undefined, 'a has its turn');
    assert.equal(turns.claim(a.turn!, 5 * MiB + ENVELOPE_BYTES + 1), undefined, 'larger than the turn: no turn');
    await until(() => b.turn !== undefined, 'the lost turn was given back: b goes');
    assert.equal(typeof b.turn, 'string');
    assert.equal(turns.claim(a.turn!, 1), undefined, 'a lost turn cannot be used afterwards');
    assert.ok(turns.claim(b.turn!, 5 * MiB + 2000), 'the file and its form fit their turn');
    const c = ask(turns, 1);
    assert.equal(turns.claim('unknown', Infinity), undefined);
    await sleep(4 * KEPT_UP_MS);
    assert.equal(c.turn, undefined, 'b in its turn still holds its bytes');
  } finally {
    caughtUp();
    turns.close();
  }
});

test('one address holds at most perAddress asks and turns, used or not; a turn given back or an ask ended frees a place', async () => {
  const caughtUp = behind();
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB, perAddress: 3, askMs: 400 }));
  try {
    const a = [ask(turns, 5 * MiB, 'flood'), ask(turns, 5 * MiB, 'flood'), ask(turns, 5 * MiB, 'flood')];
    assert.equal(turns.full('flood'), true);
    assert.equal(turns.ask(1, () => {}, 'flood'), undefined, 'a fourth is refused');
    assert.equal(turns.full('guest'), false);
    const g = ask(turns, 1, 'guest');
    await until(() => a[0].turn !== undefined, 'the first has its turn');
    a[2].leave!(); // gone before its turn: its place is free
    await until(() => a[2].turn !== undefined, 'the third is answered');
    assert.equal(turns.full('flood'), false);
    const d = ask(turns, 5 * MiB, 'flood');
    assert.equal(turns.full('flood'), true, 'given, waiting and new: three');
    const giveBack = turns.claim(a[0].turn!, 5 * MiB)!;
    giveBack();
    assert.equal(turns.full('flood'), false, 'the turn used and answered frees its place');
    await until(() => g.turn !== undefined && d.turn !== undefined, 'the others are answered');
  } finally {
    caughtUp();
    turns.close();
  }
});

test('turns never used keep other phones waiting at most the hold time: the next turn goes to the address holding the fewest', async () => {
  const caughtUp = behind(); // no turns beyond the budget: only the budget counts
  const holdMs = 400;
  const turns = new UploadTurns(limits({ admittedBytes: 10 * MiB, claimMs: 5_000, holdMs, perAddress: 8 }));
  try {
    // A script asks for eight turns at once and never sends a request.
    const flood = Array.from({ length: 8 }, () => ask(turns, 5 * MiB, '203.0.113.7'));
    await until(() => flood.filter((f) => f.turn !== undefined).length === 2, 'two of its turns fill the budget');
    const asked = performance.now();
    const guest = ask(turns, 5 * MiB, '198.51.100.2');
    await until(() => guest.turn !== undefined, 'the guest has a turn', 4_000);
    assert.equal(typeof guest.turn, 'string');
    const waited = guest.answeredAt! - asked;
    assert.ok(waited < 5_000 - 1_000, `the guest waited ${waited.toFixed(0)} ms: about the hold (${holdMs} ms), not until the unused turns are given back (5 s)`);
    const before = flood.filter((f) => f.answeredAt !== undefined && f.answeredAt < guest.answeredAt!).length;
    assert.ok(before <= 3, `the guest went before the script's queue (${before} of its 8 asks had turns first)`);
    // The guest's turn is used: its request counts as under way.
    assert.ok(turns.claim(guest.turn!, 5 * MiB));
  } finally {
    caughtUp();
    turns.close();
  }
});

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(async () => {
  await s.close();
});

const askHttp = async (site: TestServer, bytes: number) => {
  const res = await fetch(`${site.url}/api/upload-turn?bytes=${bytes}`);
  return { status: res.status, body: (await res.json()) as { success: boolean; turn: string | null } };
};

test('over HTTP: turns, and the next given when a request comes in its turn; a request without a turn is still taken and uses none', async () => {
  // On an idle server: three 5 MiB turns fit the budget, and one more is given beyond it (the
  // server keeps up); then four wait for their requests and the next phone waits.
  const asked = Date.now();
  const given = await Promise.all(Array.from({ length: UNCLAIMED_MAX }, () => askHttp(s, 5 * MiB)));
  for (const g of given) {
    assert.equal(g.status, 200);
    assert.equal(typeof g.body.turn, 'string');
  }
  assert.equal(new Set(given.map((g) => g.body.turn)).size, UNCLAIMED_MAX);
  let next: { status: number; body: { turn: string | null } } | undefined;
  let nextAt = 0;
  const nextAsk = askHttp(s, 5 * MiB).then((r) => ((nextAt = Date.now()), (next = r)));
  // The next phone waits until a request comes in a turn; on a machine slow enough for this test
  // to outlast CLAIM_MS, an unused turn given back may let it go, but never earlier.
  const stillWaiting = (why: string) => assert.ok(next === undefined || nextAt - asked >= CLAIM_MS, `${why} (it went after ${nextAt - asked} ms)`);
  await sleep(6 * KEPT_UP_MS);
  stillWaiting('four turns wait for their requests: the next phone waits');

  const plain = await uploadFile(s.url, await tinyImage('jpeg'), 'no-turn.jpg');
  assert.equal(plain.status, 201, 'an upload without a turn is taken as before');
  await sleep(6 * KEPT_UP_MS);
  stillWaiting('and it used nobody\'s turn');

  const form = new FormData();
  form.append('session_id', 'turns');
  form.append('file', new Blob([new Uint8Array(await tinyImage('jpeg', 2))]), 'in-turn.jpg');
  const res = await fetch(`${s.url}/api/upload?turn=${encodeURIComponent(given[0].body.turn!)}`, { method: 'POST', body: form });
  assert.equal(res.status, 201, 'an upload in its turn is stored');
  await nextAsk;
  assert.equal(next!.status, 200);
  assert.equal(typeof next!.body.turn, 'string', 'a request came in its turn: the waiting phone goes');
});

test('over HTTP: a server closing answers every phone waiting for a turn (ask again)', async () => {
  const site = await startTestServer();
  await Promise.all(Array.from({ length: UNCLAIMED_MAX }, () => askHttp(site, 5 * MiB)));
  const waiting = askHttp(site, 5 * MiB);
  await sleep(200);
  await site.close();
  const w = await waiting;
  assert.equal(w.status, 200);
  assert.equal(w.body.turn, null);
});
