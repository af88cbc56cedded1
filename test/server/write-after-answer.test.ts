// Under an upload rush the database's writes queue behind the disk. A chunk's answer and the
// dashboard record what they learned (an upload's offset, the size of a photo's derivatives)
// after they answer, so neither waits for the writer: here another connection holds the write
// lock while they are asked, and both answer right, before it is let go.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../../server/db/open.js';
import { UploadOffsets } from '../../server/uploads/offsets.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { chunkedUpload, sha256, uploadChunk, type ChunkForm } from '../helpers/uploads.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Another program takes the database's write lock until `release()`. */
function holdWriteLock() {
  const other = openDatabase(s.ctx.paths.database);
  other.exec('BEGIN IMMEDIATE');
  const lock = {
    held: true,
    release() {
      if (!lock.held) return;
      other.exec('COMMIT');
      other.close();
      lock.held = false;
    },
  };
  // Well within the writer's busy timeout (5 s): a write that waits for the lock then goes through.
  setTimeout(() => lock.release(), 3000).unref();
  return lock;
}

/** Polls the database until `check` holds (bounded). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await sleep(50);
  assert.ok(check(), what);
}

test('chunks are answered while the write lock is held elsewhere; the offset is recorded once it is free', async () => {
  const data = Buffer.concat([fs.readFileSync(sample('mobile_jolla.jpg')), Buffer.from('\nwrite-after-answer')]);
  const size = 100_000;
  const form = (start: number): ChunkForm => ({
    chunk_start: start, chunk_end: Math.min(start + size, data.length), total_size: data.length, filename: 'late.jpg', session_id: 'late', is_last_chunk: start + size >= data.length, upload_id: 'late-offsets',
  });
  const send = (start: number) => uploadChunk(s.url, data.subarray(start, start + size), form(start));
  const row = () => s.ctx.sqlite.prepare('SELECT received_bytes FROM uploads WHERE upload_key = ?').get('id:late-offsets') as { received_bytes: number };
  assert.equal((await send(0)).status, 200, 'the first chunk creates the row');
  await eventually(() => row().received_bytes === size, 'the first offset is recorded');

  const lock = holdWriteLock();
  try {
    for (const start of [size, 2 * size]) {
      const r = await send(start);
      assert.deepEqual(r.body, { success: true, received_bytes: start + size });
      assert.ok(lock.held, 'answered while the lock was still held');
    }
    const off = await new TestClient(s.url).get('/api/upload-chunk/offset?upload_id=late-offsets');
    assert.equal(off.body.received_bytes, 3 * size, 'the offset route answers what this process knows');
    assert.equal(row().received_bytes, size, 'the row has not caught up yet');
    assert.ok(lock.held);
  } finally {
    lock.release();
  }
  await eventually(() => row().received_bytes === 3 * size, 'the row catches up once the lock is free');

  const last = await chunkedUpload(s.url, data, { chunkSize: size, filename: 'late.jpg', sessionId: 'late', uploadId: 'late-offsets', from: 3 * size });
  assert.equal(last.status, 201, JSON.stringify(last.body));
  const stored = s.ctx.sqlite.prepare('SELECT sha256 FROM photos WHERE id = ?').get(last.body.photo_id) as { sha256: string };
  assert.equal(stored.sha256, sha256(data), 'the file is whole');
});

test('a row left a write behind by a crash: the partial file is cut back to it and the upload resumes whole', async () => {
  const data = Buffer.concat([fs.readFileSync(sample('mobile_jolla.jpg')), Buffer.from('\nbehind')]);
  const size = 100_000;
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  for (let start = 0; start < 3 * size; start += size) {
    const r = await uploadChunk(s1.url, data.subarray(start, start + size), {
      chunk_start: start, chunk_end: start + size, total_size: data.length, filename: 'b.jpg', session_id: 'behind', is_last_chunk: false, upload_id: 'behind',
    });
    assert.equal(r.body.received_bytes, start + size);
  }
  await s1.close();
  // As if the process had died before its last offset reached the row.
  const db = openDatabase(path.join(dir, 'wedding.db'));
  db.prepare('UPDATE uploads SET received_bytes = ? WHERE upload_key = ?').run(2 * size, 'id:behind');
  const temp = (db.prepare('SELECT temp_path FROM uploads WHERE upload_key = ?').get('id:behind') as { temp_path: string }).temp_path;
  db.close();
  assert.equal(fs.statSync(path.join(dir, temp)).size, 3 * size, 'the file holds the third chunk');

  const s2 = await startTestServer({}, dir);
  try {
    const off = await new TestClient(s2.url).get('/api/upload-chunk/offset?upload_id=behind');
    assert.equal(off.body.received_bytes, 2 * size, 'the row counts');
    const last = await chunkedUpload(s2.url, data, { chunkSize: size, filename: 'b.jpg', sessionId: 'behind', uploadId: 'behind', from: 2 * size });
    assert.equal(last.status, 201, JSON.stringify(last.body));
    const row = s2.ctx.sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(last.body.photo_id) as { stored_path: string; sha256: string };
    assert.equal(row.sha256, sha256(data));
    assert.deepEqual(fs.readFileSync(path.join(dir, row.stored_path)), data);
  } finally {
    await s2.close();
  }
});

test('the dashboard counts new derivatives while the write lock is held elsewhere, and records them once it is free', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const used = async () => (await admin.get('/admin/api/dashboard')).body.stats.storage_used as number;
  const before = await used();
  await s.services.disk.recorded();
  const id = await addPhoto(s, { visible: true, file: sample('hdr_iphone_hdr_YES.jpg') });
  const photo = s.ctx.sqlite.prepare('SELECT file_size, thumb_path, display_path FROM photos WHERE id = ?').get(id) as { file_size: number; thumb_path: string; display_path: string };
  const derived = fs.statSync(path.join(s.dataDir, photo.thumb_path)).size + fs.statSync(path.join(s.dataDir, photo.display_path)).size;
  const measured = () => s.ctx.sqlite.prepare('SELECT bytes FROM media_bytes WHERE photo_id = ?').get(id) as { bytes: number } | undefined;

  const lock = holdWriteLock();
  try {
    const r = await admin.get('/admin/api/dashboard');
    assert.equal(r.status, 200);
    assert.ok(lock.held, 'answered while the lock was still held');
    assert.equal(r.body.stats.storage_used - before, photo.file_size + derived, 'the new derivatives count at once');
    assert.equal(measured(), undefined, 'not recorded yet');
    assert.equal((await used()) - before, photo.file_size + derived, 'a second load counts them once, from memory, without measuring again');
  } finally {
    lock.release();
  }
  await eventually(() => measured()?.bytes === derived, 'the measurement is recorded once the lock is free');
  assert.equal((await used()) - before, photo.file_size + derived, 'and counted once from the record');
});

test('a signed-in request does not wait to extend its session; an expiry more than an hour behind is moved after the answer', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const cookie = decodeURIComponent(/wedding\.sid=([^;]+)/.exec(admin.cookieHeader())![1]); // s:<sid>.<signature>
  const sid = cookie.slice(2, cookie.lastIndexOf('.'));
  const expires = () => (s.ctx.sqlite.prepare('SELECT expires FROM sessions WHERE sid = ?').get(sid) as { expires: number }).expires;
  const inTwoHours = Date.now() + 2 * 3600_000;
  s.writable().prepare('UPDATE sessions SET expires = ? WHERE sid = ?').run(inTwoHours, sid);

  const lock = holdWriteLock();
  try {
    for (const url of ['/admin/api/me', '/admin/api/photos?filter=all&limit=20&offset=0']) {
      assert.equal((await admin.get(url)).status, 200, url);
      assert.ok(lock.held, `${url} answered while the lock was still held`);
    }
    assert.equal(expires(), inTwoHours, 'the expiry waits for the lock');
  } finally {
    lock.release();
  }
  await eventually(() => expires() > Date.now() + 24 * 3600_000, 'the expiry moved forward once the lock was free');
});

test('offsets: many uploads in one write, the latest of each; a failed write keeps them known and goes with the next one', async () => {
  const writes: [string, number][][] = [];
  let failNext = true;
  const offsets = new UploadOffsets(async (batch) => {
    await sleep(5);
    if (failNext) {
      failNext = false;
      throw new Error('disk full');
    }
    writes.push(batch);
  });
  offsets.set('a', 100); // this write fails
  offsets.set('b', 50); // waits behind it
  offsets.set('a', 200);
  await offsets.flush();
  assert.deepEqual(writes, [], 'nothing written yet: the first write failed and the loop stopped');
  assert.equal(offsets.get('a'), 200, 'still known in memory');
  offsets.forget('b'); // completed meanwhile: its row says what counts
  offsets.set('c', 10);
  await offsets.flush();
  assert.deepEqual(writes.flat().sort(), [['a', 200], ['c', 10]]);
  assert.equal(offsets.get('b'), undefined);
});
