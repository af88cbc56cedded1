// Many phones at once, each sending as fast as loopback carries: the server takes upload bytes in
// only as fast as its writes complete (uploads/pacer.ts), ranking uploads by what they have left.
// Every file still ends stored, byte-identical, and the count of bytes being written never passes
// its cap by more than one turn's intake and the pieces gathered in the uploads' batches, and goes
// back to nothing once they are done (a leak would stop every later upload).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { TURN_BUDGET_BYTES, writingBytes, WRITING_CAP_BYTES } from '../../server/uploads/pacer.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chunkedUpload, sha256, uploadFile } from '../helpers/uploads.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const PHONES = 16;
const MiB = 1024 * 1024;
/** The most a file sink gathers before it writes (file-sink.ts), one upload's share beyond the cap. */
const BATCH = 256 * 1024 + 64 * 1024;

test('phones sending all at once, unpaced: every file is stored byte-identical, and the bytes being written stay bounded and drop back to none', async () => {
  const base = fs.readFileSync(sample('mobile_jolla.jpg'));
  const files = Array.from({ length: PHONES }, (_, i) => Buffer.concat([base, crypto.randomBytes(MiB + ((i * 97_531) % (2 * MiB)))]));
  writingBytes(true);
  // Half send their file in 1 MiB chunks, half in one request.
  const answers = await Promise.all(
    files.map((data, i) =>
      i % 2 ? uploadFile(s.url, data, `whole-${i}.jpg`, `phone-${i}`) : chunkedUpload(s.url, data, { chunkSize: MiB, filename: `chunked-${i}.jpg`, sessionId: `phone-${i}` }),
    ),
  );
  for (const [i, a] of answers.entries()) {
    assert.equal(a.status, 201, `phone ${i}: ${JSON.stringify(a.body)}`);
    const row = s.ctx.sqlite.prepare('SELECT sha256, stored_path FROM photos WHERE id = ?').get(a.body.photo_id) as { sha256: string; stored_path: string };
    assert.equal(row.sha256, sha256(files[i]), `phone ${i}: the row's SHA-256 is the phone's file's`);
    assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, row.stored_path))), row.sha256, `phone ${i}: the stored file is the phone's`);
  }
  const { now, peak } = writingBytes();
  assert.equal(now, 0, 'nothing is counted as being written once every upload is done');
  assert.ok(peak > 0, 'the uploads were counted while they were written');
  assert.ok(peak <= WRITING_CAP_BYTES + TURN_BUDGET_BYTES + PHONES * BATCH, `bytes being written at most ${peak}`);
});
