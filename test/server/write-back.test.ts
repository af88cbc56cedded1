// Upload bytes are written back to the disk in rounds about once a second (sync -f, run by the
// media worker) instead of in the kernel's multi-gigabyte bursts (server/storage/write-back.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import { noteWritten, WriteBackRounds } from '../../server/storage/write-back.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { uploadChunk } from '../helpers/uploads.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let server: TestServer | undefined;
after(() => server?.close());

test('a round runs only after bytes were written, and never two at once', async () => {
  let calls = 0;
  let running = 0;
  let most = 0;
  const rounds = new WriteBackRounds(async () => {
    calls++;
    most = Math.max(most, ++running);
    await sleep(600); // a slow disk: many ticks pass during one round
    running--;
  }, 20);
  rounds.start();
  try {
    await sleep(100);
    assert.equal(calls, 0, 'nothing written, no round');
    noteWritten(5 * 1024 * 1024);
    await sleep(250);
    assert.equal(calls, 1, 'one round for what was written');
    // Written while that round runs: one more round once it is over, not one per write.
    for (let i = 0; i < 10; i++) {
      noteWritten(1024);
      await sleep(20);
    }
    await sleep(1000);
    assert.equal(calls, 2, 'the writes made during a round wait for one next round');
    assert.equal(most, 1, 'rounds never overlap');
  } finally {
    rounds.stop();
  }
});

test('after an upload the server syncs the disk within a few seconds', async () => {
  // Started only now: its rounds share the count of written bytes with the test above.
  const s = (server = await startTestServer());
  const data = fs.readFileSync(sample('Canon_40D.jpg'));
  const half = Math.floor(data.length / 2);
  const before = s.services.processing.writeBackRounds();
  const r = await uploadChunk(s.url, data.subarray(0, half), { chunk_start: 0, chunk_end: half, total_size: data.length, filename: 'canon.jpg', session_id: 'sync', is_last_chunk: false, upload_id: 'sync-1' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const until = Date.now() + 10_000;
  while (s.services.processing.writeBackRounds() === before && Date.now() < until) await sleep(50);
  assert.ok(s.services.processing.writeBackRounds() > before, 'the media worker ran a write-back round (sync -f DATA_DIR) and it succeeded');
});
