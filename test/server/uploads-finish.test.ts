// Once every byte of a chunked upload has arrived, it ends stored. Storing fails here for real
// (the database's disk is full inside the photo's transaction; the write lock is held past the
// busy timeout): the bytes stay, the answer says when to come back, and the next try (the offset
// call, or the last chunk again) stores the file byte for byte.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { heldBeforeCommit, hog, smallDisk } from '../helpers/disk.js';
import { startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { sha256, uploadChunk, type ChunkForm } from '../helpers/uploads.js';

const MIB = 1024 * 1024;
const disk = smallDisk('64m', 'the failed-store tests');
let s: TestServer;

before(async () => {
  if (disk) s = await startTestServer({ MIN_FREE_MB: '1' }, disk.dir);
});
after(async () => {
  await s?.close();
  disk?.unmount();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A real JPEG padded with random bytes (decoders stop at its end marker) to `size` bytes. */
async function bigJpeg(size: number, seed: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: seed, g: 40, b: 90 } } }).jpeg().toBuffer();
  return Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]);
}

const form = (data: Buffer, start: number, end: number, uploadId: string): ChunkForm => ({
  chunk_start: start, chunk_end: end, total_size: data.length, filename: `${uploadId}.jpg`, session_id: 'finish', is_last_chunk: end === data.length, upload_id: uploadId,
});
const uploadRow = (uploadId: string) => s.ctx.sqlite.prepare('SELECT * FROM uploads WHERE upload_key = ?').get(`id:${uploadId}`) as any;
const offset = (uploadId: string) => new TestClient(s.url).fetch(`/api/upload-chunk/offset?upload_id=${uploadId}`);

/** The last chunk sent while another connection holds the write lock: resolves once its original is in place and its commit waits. */
const lastChunkWaitingForCommit = (data: Buffer, from: number, uploadId: string) =>
  heldBeforeCommit(s.ctx.paths.database, s.ctx.paths.originals, () => uploadChunk(s.url, data.subarray(from), form(data, from, data.length, uploadId)));

/** What must hold after a failed store: the bytes are all kept, and nothing claims them. */
function keptWhole(uploadId: string, data: Buffer, moved: string) {
  const row = uploadRow(uploadId);
  assert.equal(row.status, 'receiving');
  assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, row.temp_path))), sha256(data), 'every byte is kept in the partial file');
  assert.ok(!fs.existsSync(path.join(s.ctx.paths.originals, moved)), 'nothing left in originals');
  assert.equal((s.ctx.sqlite.prepare('SELECT count(*) n FROM photos WHERE sha256 = ?').get(sha256(data)) as { n: number }).n, 0, 'no photo');
}

function storedWhole(photoId: string, data: Buffer) {
  const photo = s.ctx.sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(photoId) as { stored_path: string; sha256: string };
  assert.equal(photo.sha256, sha256(data));
  assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, photo.stored_path))), sha256(data), 'stored byte for byte');
}

test('a disk that fills inside the photo transaction: 507 with Retry-After, every byte kept, and the offset call stores it once there is room', { skip: !disk && 'tmpfs cannot be mounted here' }, async () => {
  const data = await bigJpeg(3 * MIB, 1);
  assert.equal((await uploadChunk(s.url, data.subarray(0, 2 * MIB), form(data, 0, 2 * MIB, 'full-tx'))).status, 200);
  const { answer, moved, release } = await lastChunkWaitingForCommit(data, 2 * MIB, 'full-tx');
  const other = hog(path.join(disk!.dir, 'other-program.bin'));
  let filled = true;
  try {
    // A new upload meets the full disk (507): the server gives its space reserve to the database,
    // and the other program takes that too, so the photo's commit finds no room at all.
    const refused = await uploadChunk(s.url, data.subarray(0, MIB), form(data, 0, MIB, 'refused'));
    assert.equal(refused.status, 507);
    assert.ok(!fs.existsSync(path.join(disk!.dir, 'space-reserve')), 'the reserve was given up');
    await sleep(200);
    release(); // the photo's transaction goes on, onto a full disk
    const failed = await answer;
    assert.equal(failed.status, 507, JSON.stringify(failed.body));
    assert.equal(failed.body.code, 'storage_full');
    assert.ok(Number(failed.retryAfter) > 0, 'with Retry-After');
    keptWhole('full-tx', data, moved);
    // While the disk stays full, the offset call tries and says the same.
    const still = await offset('full-tx');
    assert.equal(still.status, 507);
    assert.ok(Number(still.headers.get('retry-after')) > 0);
    keptWhole('full-tx', data, moved);
    other.stop();
    filled = false;
    const done = await offset('full-tx');
    const body = await done.json();
    assert.equal(done.status, 200, JSON.stringify(body));
    assert.deepEqual({ ...body, photo_id: undefined }, { success: true, received_bytes: data.length, complete: true, photo_id: undefined });
    storedWhole(body.photo_id, data);
    // The last chunk sent again answers as a last chunk does.
    const again = await uploadChunk(s.url, data.subarray(2 * MIB), form(data, 2 * MIB, data.length, 'full-tx'));
    assert.equal(again.status, 201);
    assert.equal(again.body.photo_id, body.photo_id);
  } finally {
    release();
    if (filled) other.stop();
  }
});

test('the write lock held past the busy timeout: 503 with Retry-After, every byte kept, and the last chunk sent again stores it', { skip: !disk && 'tmpfs cannot be mounted here' }, async () => {
  const data = await bigJpeg(2 * MIB, 2);
  assert.equal((await uploadChunk(s.url, data.subarray(0, MIB), form(data, 0, MIB, 'busy-tx'))).status, 200);
  const { answer, moved, release } = await lastChunkWaitingForCommit(data, MIB, 'busy-tx');
  try {
    const failed = await answer; // the writer gives up after its busy timeout (5 s)
    assert.equal(failed.status, 503, JSON.stringify(failed.body));
    assert.equal(failed.body.code, 'unavailable');
    assert.ok(Number(failed.retryAfter) > 0, 'with Retry-After');
    release();
    keptWhole('busy-tx', data, moved);
    const again = await uploadChunk(s.url, data.subarray(MIB), form(data, MIB, data.length, 'busy-tx'));
    assert.equal(again.status, 201, JSON.stringify(again.body));
    storedWhole(again.body.photo_id, data);
    const off = await (await offset('busy-tx')).json();
    assert.deepEqual(off, { success: true, received_bytes: data.length, complete: true, photo_id: again.body.photo_id });
  } finally {
    release();
  }
});
