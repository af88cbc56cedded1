import assert from 'node:assert/strict';
import { test } from 'node:test';
import fs from 'node:fs';
import path from 'node:path';
import { FileSink } from '../../server/uploads/file-sink.js';
import { paceUploadBytes, TURN_BUDGET_BYTES, writeEnded, writeStarted, writingBytes, WRITING_CAP_BYTES } from '../../server/uploads/pacer.js';
import { tempDir } from '../helpers/temp.js';

const nextTurn = () => new Promise((r) => setImmediate(r));

test('upload pieces go ahead up to the budget of one event-loop turn; the rest wait their turn, first come first served', async () => {
  await nextTurn();
  const piece = 256 * 1024;
  const perTurn = TURN_BUDGET_BYTES / piece;
  const ran: number[] = [];
  for (let i = 0; i < perTurn * 3; i++) paceUploadBytes(piece, () => ran.push(i));
  assert.deepEqual(ran, [...Array(perTurn).keys()], 'one budget at once');
  await nextTurn();
  assert.equal(ran.length, perTurn * 2, 'a second budget in the next turn');
  await nextTurn();
  assert.deepEqual(ran, [...Array(perTurn * 3).keys()], 'all of them, in the order they asked');
  // A piece larger than a whole budget still goes, alone in its turn.
  let big = false;
  paceUploadBytes(TURN_BUDGET_BYTES * 2, () => (big = true));
  await nextTurn();
  await nextTurn();
  assert.equal(big, true);
});

test('an upload whose request has fully arrived is not held behind other uploads\' pieces; one still arriving waits its turn', async () => {
  await nextTurn();
  const file = path.join(tempDir('wedding-pacer-'), 'piece');
  const handle = await fs.promises.open(file, 'w');
  try {
    // Other uploads' pieces fill this turn's budget and the next three.
    const others: number[] = [];
    for (let i = 0; i < 4; i++) paceUploadBytes(TURN_BUDGET_BYTES, () => others.push(i));
    const written = (arrived: boolean) => {
      const sink = new FileSink({ file: handle, position: 0, hash: null, limit: 1 << 20, tooLarge: () => new Error('too large') as never, body: { arrived: () => arrived, remaining: () => 0, since: performance.now() } });
      return new Promise<number>((resolve) => sink.write(Buffer.alloc(64 * 1024, 1), () => resolve(others.length)));
    };
    // Each resolves with how many of the others had gone ahead of it.
    const [done, arriving] = [written(true), written(false)];
    assert.equal(await done, 1, 'the finished request goes in the turn it asks');
    assert.equal(await arriving, 4, 'the one still arriving waits behind every piece queued before it');
  } finally {
    await handle.close();
  }
});

test('a request with at most 4 MiB left (its phone has sent it all) goes first, in the order it came to that; then the fewest bytes still to come, and one that has waited long enough overtakes', async () => {
  await nextTurn();
  const MiB = 1024 * 1024;
  const now = performance.now();
  const body = (remaining: () => number, since = now) => ({ arrived: () => false, remaining, since });
  const ran: string[] = [];
  // A whole budget taken first, so the rest queue up and are ranked in the next turn.
  paceUploadBytes(TURN_BUDGET_BYTES, () => ran.push('first'));
  paceUploadBytes(64 * 1024, () => ran.push('5 MiB left'), body(() => 5 * MiB));
  paceUploadBytes(64 * 1024, () => ran.push('3 MiB left'), body(() => 3 * MiB));
  paceUploadBytes(64 * 1024, () => ran.push('1 MiB left'), body(() => 1 * MiB));
  paceUploadBytes(64 * 1024, () => ran.push('6 MiB left, begun 10 s ago'), body(() => 6 * MiB, now - 10_000));
  paceUploadBytes(64 * 1024, () => ran.push('7 MiB left'), body(() => 7 * MiB));
  // One picked request a turn: each takes the rest of its turn's budget (its credit).
  for (let k = 0; k < 6; k++) await nextTurn();
  assert.deepEqual(ran, ['first', '3 MiB left', '1 MiB left', '6 MiB left, begun 10 s ago', '5 MiB left', '7 MiB left']);

  // One whose phone began to wait earlier stays ahead of one that came to it later with less left.
  // Turns, then a few milliseconds, so that the two come to wait at different times.
  const turns = async (n: number) => {
    for (let k = 0; k < n; k++) await nextTurn();
    await new Promise((r) => setTimeout(r, 5));
  };
  ran.length = 0;
  const early = body(() => 4 * MiB);
  paceUploadBytes(TURN_BUDGET_BYTES, () => ran.push('budget'));
  paceUploadBytes(64 * 1024, () => ran.push('early'), early);
  await turns(3);
  paceUploadBytes(TURN_BUDGET_BYTES, () => ran.push('budget'));
  paceUploadBytes(64 * 1024, () => ran.push('late, 1 MiB left'), body(() => 1 * MiB));
  paceUploadBytes(64 * 1024, () => ran.push('early again, 4 MiB left'), early);
  await turns(3);
  assert.deepEqual(
    ran.filter((r) => r !== 'budget'),
    ['early', 'early again, 4 MiB left', 'late, 1 MiB left'],
  );
});

test('the request picked takes in the rest of its turn\'s budget at once, without queueing again; in that turn only', async () => {
  await nextTurn();
  const piece = 64 * 1024;
  const body = (left: number) => ({ arrived: () => false, remaining: () => left, since: performance.now() });
  const [picked, other] = [body(1024 * 1024), body(2 * 1024 * 1024)];
  const ran: string[] = [];
  paceUploadBytes(TURN_BUDGET_BYTES, () => ran.push('budget'));
  paceUploadBytes(piece, () => ran.push('picked'), picked);
  paceUploadBytes(piece, () => ran.push('other'), other);
  await nextTurn();
  assert.deepEqual(ran, ['budget', 'picked'], 'one request picked in the next turn');
  // Its next pieces, read from its connection in the same turn, go straight on up to the budget.
  const perTurn = TURN_BUDGET_BYTES / piece;
  for (let i = 1; i < perTurn; i++) paceUploadBytes(piece, () => ran.push('picked'), picked);
  assert.equal(ran.filter((r) => r === 'picked').length, perTurn, 'a whole budget taken in at once');
  assert.equal(ran.includes('other'), false, 'the other waits: the budget is spent');
  // Credit not used in its turn is gone: the next piece queues again, behind the one waiting.
  await nextTurn();
  assert.deepEqual(ran.slice(-1), ['other']);
  let late = false;
  paceUploadBytes(piece, () => (late = true), picked);
  assert.equal(late, false, 'queued: its credit ended with its turn');
  await nextTurn();
  await nextTurn();
  assert.equal(late, true);
});

test('no upload bytes are taken in while the bytes being written reach the cap; they go once writes complete', async () => {
  await nextTurn();
  assert.equal(writingBytes().now, 0, 'nothing being written between tests');
  writeStarted(WRITING_CAP_BYTES);
  let ran = false;
  try {
    paceUploadBytes(64 * 1024, () => (ran = true));
    await nextTurn();
    await nextTurn();
    assert.equal(ran, false, 'held while the disk is behind');
  } finally {
    writeEnded(WRITING_CAP_BYTES);
  }
  await nextTurn();
  assert.equal(ran, true, 'taken in once the writes completed');
});
