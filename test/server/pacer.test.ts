import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paceUploadBytes, TURN_BUDGET_BYTES } from '../../server/uploads/pacer.js';

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
