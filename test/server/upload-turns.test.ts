// Turns for upload requests (uploads/turns.ts): a phone asks GET /api/upload-turn and sends its
// upload or chunk with ?turn= once it has one, so the bytes admitted at once stay within what the
// server takes in and a chunk's answer follows its last byte. First come, first served; a turn
// not used is given back; a request without a turn is still taken.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { writeEnded, writeStarted, WRITING_CAP_BYTES } from '../../server/uploads/pacer.js';
import { ADMITTED_BYTES, KEPT_UP_MS, UploadTurns } from '../../server/uploads/turns.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile } from '../helpers/uploads.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;
const limits = (over: Partial<ConstructorParameters<typeof UploadTurns>[0]> = {}) => ({ admittedBytes: 10 * MiB, claimMs: 5_000, askMs: 20_000, maxWaiting: 100, ...over });

/** An ask and what became of it so far. */
function ask(turns: UploadTurns, bytes: number) {
  const out: { turn?: string | null; leave?: () => void } = {};
  const p = turns.ask(bytes, (leave) => (out.leave = leave));
  assert.ok(p, 'the ask is taken');
  void p.then((t) => (out.turn = t));
  return out;
}

test('turns are given first come, first served within the admitted bytes; a used turn given back lets the next in', async () => {
  const turns = new UploadTurns(limits());
  const a = ask(turns, 5 * MiB);
  const b = ask(turns, 5 * MiB);
  const c = ask(turns, 5 * MiB);
  await sleep(5 * KEPT_UP_MS);
  assert.equal(typeof a.turn, 'string');
  assert.equal(typeof b.turn, 'string');
  assert.notEqual(a.turn, b.turn);
  assert.equal(c.turn, undefined, 'a third 5 MiB is over the 10 MiB admitted, and the turns given are not used yet');
  assert.equal(turns.waiting(), 1);
  const giveBack = turns.claim(a.turn!);
  assert.ok(giveBack, 'a turn given is used once');
  assert.equal(turns.claim(a.turn!), undefined, 'and not twice');
  assert.equal(turns.claim('made-up'), undefined, 'a token never given is no turn');
  giveBack();
  await sleep(1);
  assert.equal(typeof c.turn, 'string', 'the request answered gives its bytes back: the next phone goes');
  turns.close();
});

test('beyond the budget, one more turn once the server has kept up for a while since the last request came; none while it is behind', async () => {
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB }));
  const a = ask(turns, 5 * MiB);
  await sleep(1);
  const used = turns.claim(a.turn!)!; // a's request came and is being read (a slow phone: it keeps up)
  // The writes stand over a quarter of their cap: the server is behind; nobody else goes.
  writeStarted(WRITING_CAP_BYTES / 2);
  const b = ask(turns, 5 * MiB);
  await sleep(4 * KEPT_UP_MS);
  assert.equal(b.turn, undefined, 'behind: the next waits for bytes given back');
  writeEnded(WRITING_CAP_BYTES / 2);
  await sleep(3 * KEPT_UP_MS);
  assert.equal(typeof b.turn, 'string', 'kept up for a while: one more turn although the budget is used');
  const c = ask(turns, 5 * MiB);
  await sleep(3 * KEPT_UP_MS);
  assert.equal(c.turn, undefined, 'not while the turn given beyond the budget waits for its request');
  turns.claim(b.turn!);
  await sleep(3 * KEPT_UP_MS);
  assert.equal(typeof c.turn, 'string', 'its request came and the server kept up: one more');
  used();
  turns.close();
});

test('a turn not used is given back after the claim time; a phone that leaves leaves the queue', async () => {
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB, claimMs: 150, maxWaiting: 2 }));
  const a = ask(turns, 5 * MiB);
  const b = ask(turns, 5 * MiB);
  const c = ask(turns, 5 * MiB);
  assert.equal(turns.ask(1, () => {}), undefined, 'a is going and b and c wait: a third waiting is over maxWaiting, refused');
  await sleep(50);
  assert.equal(typeof a.turn, 'string');
  assert.equal(b.turn, undefined);
  await sleep(200);
  assert.equal(typeof b.turn, 'string', "a's turn was never used: given back, b goes");
  assert.equal(turns.claim(a.turn!), undefined, 'a turn given back cannot be used any more');
  c.leave!(); // c's phone went away before its turn
  await sleep(1);
  assert.equal(c.turn, null);
  assert.equal(turns.waiting(), 0);
  turns.close();
});

test('an ask without a turn in its time is answered "ask again"; close answers everyone waiting', async () => {
  const turns = new UploadTurns(limits({ admittedBytes: 5 * MiB, askMs: 300 }));
  const a = ask(turns, 5 * MiB);
  const b = ask(turns, 5 * MiB);
  await sleep(400);
  assert.equal(typeof a.turn, 'string');
  assert.equal(b.turn, null, 'no turn within the ask time: the answer says ask again');
  const c = ask(turns, 5 * MiB);
  turns.close();
  await sleep(1);
  assert.equal(c.turn, null, 'closing: everyone waiting is answered');
  assert.equal(await turns.ask(1, () => {}), null, 'after close: no turns');
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

test('over HTTP: turns for 5 MiB chunks, the next given when a request sent in its turn is answered; requests without a turn are still taken', async () => {
  const perChunk = 5 * MiB;
  const fit = Math.floor(ADMITTED_BYTES / perChunk);
  const given = await Promise.all(Array.from({ length: fit }, () => askHttp(s, perChunk)));
  for (const g of given) {
    assert.equal(g.status, 200);
    assert.equal(typeof g.body.turn, 'string');
  }
  let next: { status: number; body: { turn: string | null } } | undefined;
  const nextAsk = askHttp(s, perChunk).then((r) => (next = r));
  await sleep(300);
  assert.equal(next, undefined, 'over the admitted bytes, with every turn given still unused: the next phone waits');

  const image = await tinyImage('jpeg');
  const plain = await uploadFile(s.url, image, 'no-turn.jpg');
  assert.equal(plain.status, 201, 'an upload without a turn is taken as before');

  const form = new FormData();
  form.append('session_id', 'turns');
  form.append('file', new Blob([new Uint8Array(await tinyImage('jpeg', 2))]), 'in-turn.jpg');
  const res = await fetch(`${s.url}/api/upload?turn=${encodeURIComponent(given[0].body.turn!)}`, { method: 'POST', body: form });
  assert.equal(res.status, 201, 'an upload in its turn is stored');
  await nextAsk;
  assert.equal(next!.status, 200);
  assert.equal(typeof next!.body.turn, 'string', 'its answer gave the turn back: the waiting phone goes');
});

test('over HTTP: a server closing answers every phone waiting for a turn (ask again)', async () => {
  const site = await startTestServer();
  const fit = Math.floor(ADMITTED_BYTES / (5 * MiB));
  await Promise.all(Array.from({ length: fit }, () => askHttp(site, 5 * MiB)));
  const waiting = askHttp(site, 5 * MiB);
  await sleep(200);
  await site.close();
  const w = await waiting;
  assert.equal(w.status, 200);
  assert.equal(w.body.turn, null);
});
