import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openSqlite } from '../../server/db/open.js';
import { UploadsService } from '../../server/uploads/uploads.service.js';
import { sample } from '../helpers/samples.js';
import { serverWithClient, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { chunkedUpload, sha256, uploadChunk, type ChunkForm } from '../helpers/uploads.js';

let s: TestServer;
let c: TestClient;
before(async () => ({ s, client: c } = await serverWithClient()));
after(() => s.close());

/** A real phone JPEG made unique per tag by appending bytes after its end marker. */
const phoneJpeg = (tag: string) => Buffer.concat([fs.readFileSync(sample('mobile_jolla.jpg')), Buffer.from(`\n${tag}`)]);
const stored = (photoId: string) => {
  const row = s.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(photoId) as { stored_path: string };
  return fs.readFileSync(path.join(s.dataDir, row.stored_path));
};
const uploadsRow = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM uploads WHERE upload_key = ?').get(`id:${id}`) as any;
const form = (data: Buffer, start: number, end: number, extra: Partial<ChunkForm> = {}): ChunkForm => ({
  chunk_start: start,
  chunk_end: end,
  total_size: data.length,
  filename: 'image.jpg',
  session_id: 'sess-chunks',
  is_last_chunk: end === data.length,
  ...extra,
});

test('a chunked upload ends byte-identical and the offset route then reports it complete', async () => {
  const data = phoneJpeg('a');
  const q = `/api/upload-chunk/offset?session_id=sess-chunks&filename=image.jpg&total_size=${data.length}&upload_id=up-a`;
  assert.deepEqual((await c.get(q)).body, { success: true, received_bytes: 0 });
  const first = await uploadChunk(s.url, data.subarray(0, 100_000), form(data, 0, 100_000, { upload_id: 'up-a' }));
  assert.deepEqual(first.body, { success: true, received_bytes: 100_000 });
  assert.equal((await c.get(q)).body.received_bytes, 100_000);
  const last = await chunkedUpload(s.url, data, { chunkSize: 100_000, filename: 'image.jpg', sessionId: 'sess-chunks', uploadId: 'up-a', from: 100_000 });
  assert.equal(last.status, 201);
  assert.equal(last.body.duplicate, false);
  assert.deepEqual(stored(last.body.photo_id), data);
  const row = s.ctx.sqlite.prepare('SELECT sha256, file_size, original_filename FROM photos WHERE id = ?').get(last.body.photo_id) as any;
  assert.equal(row.sha256, sha256(data));
  assert.equal(row.file_size, data.length);
  assert.equal(row.original_filename, 'image.jpg');
  assert.deepEqual((await c.get(q)).body, { success: true, received_bytes: data.length, complete: true, photo_id: last.body.photo_id });
  // A client that lost the last answer and sends the last chunk again learns the same result.
  const again = await uploadChunk(s.url, data.subarray(data.length - 5), form(data, data.length - 5, data.length, { upload_id: 'up-a' }));
  assert.equal(again.status, 201);
  assert.equal(again.body.photo_id, last.body.photo_id);
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming), []);
});

test('re-sending a received chunk is accepted and overlapping chunks store each byte once', async () => {
  const data = phoneJpeg('b');
  const opts = { upload_id: 'up-b' };
  assert.equal((await uploadChunk(s.url, data.subarray(0, 50_000), form(data, 0, 50_000, opts))).body.received_bytes, 50_000);
  const resend = await uploadChunk(s.url, data.subarray(0, 50_000), form(data, 0, 50_000, opts));
  assert.deepEqual(resend.body, { success: true, received_bytes: 50_000 });
  const overlap = await uploadChunk(s.url, data.subarray(30_000, 90_000), form(data, 30_000, 90_000, opts));
  assert.deepEqual(overlap.body, { success: true, received_bytes: 90_000 });
  const rest = await uploadChunk(s.url, data.subarray(90_000), form(data, 90_000, data.length, opts));
  assert.equal(rest.status, 201);
  assert.deepEqual(stored(rest.body.photo_id), data);
});

test('a chunk past the received bytes is 409 with received_bytes so the client can resume', async () => {
  const data = phoneJpeg('c');
  await uploadChunk(s.url, data.subarray(0, 10_000), form(data, 0, 10_000, { upload_id: 'up-c' }));
  const gap = await uploadChunk(s.url, data.subarray(20_000, 30_000), form(data, 20_000, 30_000, { upload_id: 'up-c' }));
  assert.equal(gap.status, 409);
  assert.equal(gap.body.success, false);
  assert.equal(gap.body.code, 'conflict');
  assert.equal(gap.body.received_bytes, 10_000);
  assert.match(gap.body.error, /10000 bytes/);
  const unknown = await uploadChunk(s.url, data.subarray(20_000, 30_000), form(data, 20_000, 30_000, { upload_id: 'never-started' }));
  assert.equal(unknown.status, 409);
  assert.equal(unknown.body.code, 'conflict');
  assert.equal(unknown.body.received_bytes, 0);
});

test('form fields after the file part work as well as before it', async () => {
  const data = phoneJpeg('d');
  const half = Math.floor(data.length / 2);
  const a = await uploadChunk(s.url, data.subarray(0, half), form(data, 0, half, { upload_id: 'up-d' }), true);
  assert.deepEqual(a.body, { success: true, received_bytes: half });
  const b = await uploadChunk(s.url, data.subarray(half), form(data, half, data.length, { upload_id: 'up-d' }), true);
  assert.equal(b.status, 201);
  assert.deepEqual(stored(b.body.photo_id), data);
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming).filter((f) => f.endsWith('.chunk')), [], 'the spooled chunks are gone');
});

test('a chunk whose size differs from chunk_end - chunk_start is 400 and the partial is dropped', async () => {
  const data = phoneJpeg('e');
  await uploadChunk(s.url, data.subarray(0, 10_000), form(data, 0, 10_000, { upload_id: 'up-e' }));
  const row = uploadsRow('up-e');
  assert.ok(fs.existsSync(path.join(s.dataDir, row.temp_path)));
  const short = await uploadChunk(s.url, data.subarray(10_000, 15_000), form(data, 10_000, 20_000, { upload_id: 'up-e' }));
  assert.equal(short.status, 400);
  assert.equal(short.body.code, 'invalid_input');
  assert.match(short.body.error, /Size mismatch/);
  assert.equal(uploadsRow('up-e'), undefined);
  assert.ok(!fs.existsSync(path.join(s.dataDir, row.temp_path)));
  // Longer than declared, fields after the file: the same answer.
  await uploadChunk(s.url, data.subarray(0, 10_000), form(data, 0, 10_000, { upload_id: 'up-e2' }));
  const long = await uploadChunk(s.url, data.subarray(10_000, 30_000), form(data, 10_000, 20_000, { upload_id: 'up-e2' }), true);
  assert.equal(long.status, 400);
  assert.match(long.body.error, /Size mismatch/);
  assert.equal(uploadsRow('up-e2'), undefined);
});

test('bad chunk fields are 400 with a sentence naming the problem', async () => {
  const data = phoneJpeg('f');
  const cases: [Partial<ChunkForm> & Record<string, unknown>, RegExp][] = [
    [{ chunk_start: -1 }, /chunk_start/],
    [{ chunk_end: 'ten' as unknown as number }, /chunk_end/],
    [{ chunk_start: 500, chunk_end: 500 }, /greater than chunk_start/],
    [{ chunk_end: data.length + 10 }, /past total_size/],
    [{ total_size: 0, chunk_end: 1 }, /empty|past/],
    [{ filename: '' }, /filename/],
    [{ session_id: '' }, /session_id/],
    [{ is_last_chunk: 'maybe' as unknown as boolean }, /is_last_chunk/],
  ];
  for (const [override, message] of cases) {
    const r = await uploadChunk(s.url, data.subarray(0, 1000), { ...form(data, 0, 1000, { upload_id: 'up-f' }), ...override });
    assert.equal(r.status, 400, JSON.stringify(override));
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'invalid_input');
    assert.match(r.body.error, message);
  }
  const noFile = new FormData();
  for (const [k, v] of Object.entries(form(data, 0, 1000))) noFile.append(k, String(v));
  const res = await fetch(`${s.url}/api/upload-chunk`, { method: 'POST', body: noFile });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /file/);
  assert.equal((await c.get('/api/upload-chunk/offset?session_id=x')).status, 400);
});

test('a first chunk that is not an accepted type is 415 and nothing is kept', async () => {
  const text = Buffer.from('plain text, not a photo at all. '.repeat(200));
  const before = fs.readdirSync(s.ctx.paths.incoming);
  const r = await uploadChunk(s.url, text.subarray(0, 4000), form(text, 0, 4000, { upload_id: 'up-text', filename: 'fake.jpg' }));
  assert.equal(r.status, 415);
  assert.equal(r.body.code, 'unsupported_type');
  assert.match(r.body.error, /not supported/);
  assert.equal(uploadsRow('up-text'), undefined);
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming), before);
});

test('uploads are told apart by upload_id, else by session, file name and size', async () => {
  // Two phones' "image.jpg" of the same size, sent at the same time with different upload ids.
  const a = phoneJpeg('g1');
  const b = phoneJpeg('g2');
  assert.equal(a.length, b.length);
  await uploadChunk(s.url, a.subarray(0, 1000), form(a, 0, 1000, { upload_id: 'phone-1' }));
  await uploadChunk(s.url, b.subarray(0, 3000), form(b, 0, 3000, { upload_id: 'phone-2' }));
  const ra = await uploadChunk(s.url, a.subarray(1000), form(a, 1000, a.length, { upload_id: 'phone-1' }));
  const rb = await uploadChunk(s.url, b.subarray(3000), form(b, 3000, b.length, { upload_id: 'phone-2' }));
  assert.equal(ra.status, 201);
  assert.equal(rb.status, 201);
  assert.deepEqual(stored(ra.body.photo_id), a);
  assert.deepEqual(stored(rb.body.photo_id), b);

  // Without upload_id the key is (session_id, filename, total_size).
  const d = phoneJpeg('g3');
  await uploadChunk(s.url, d.subarray(0, 2000), form(d, 0, 2000, { session_id: 's1', filename: 'x.jpg' }));
  const q = (session: string, name: string, size: number) => c.get(`/api/upload-chunk/offset?session_id=${session}&filename=${name}&total_size=${size}`);
  assert.equal((await q('s1', 'x.jpg', d.length)).body.received_bytes, 2000);
  assert.equal((await q('s2', 'x.jpg', d.length)).body.received_bytes, 0);
  assert.equal((await q('s1', 'y.jpg', d.length)).body.received_bytes, 0);
  assert.equal((await q('s1', 'x.jpg', d.length + 1)).body.received_bytes, 0);
  const done = await uploadChunk(s.url, d.subarray(2000), form(d, 2000, d.length, { session_id: 's1', filename: 'x.jpg' }));
  assert.equal(done.status, 201);
  assert.deepEqual((await q('s1', 'x.jpg', d.length)).body, { success: true, received_bytes: d.length, complete: true, photo_id: done.body.photo_id });
});

test('a chunked upload of a file already stored answers 200 duplicate', async () => {
  const data = fs.readFileSync(sample('Nikon_D70.jpg'));
  const before = fs.readdirSync(s.ctx.paths.incoming);
  const first = await chunkedUpload(s.url, data, { chunkSize: 4000, filename: 'n.jpg', uploadId: 'dup-1' });
  assert.equal(first.status, 201);
  const second = await chunkedUpload(s.url, data, { chunkSize: 5000, filename: 'n.jpg', uploadId: 'dup-2' });
  assert.equal(second.status, 200);
  assert.deepEqual(second.body, { success: true, photo_id: first.body.photo_id, duplicate: true, duplicate_type: 'exact' });
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming), before, 'the duplicate partial is dropped');
});

test('a total_size over MAX_UPLOAD_GB is 413 before anything is stored', async () => {
  const small = await startTestServer({ MAX_UPLOAD_GB: '0.000001' });
  try {
    const data = phoneJpeg('h');
    const r = await uploadChunk(small.url, data.subarray(0, 500), form(data, 0, 500, { upload_id: 'too-big' }));
    assert.equal(r.status, 413);
    assert.equal(r.body.code, 'too_large');
    assert.match(r.body.error, /too large/);
    assert.deepEqual(fs.readdirSync(small.ctx.paths.incoming), []);
  } finally {
    await small.close();
  }
});

test('partial uploads untouched for 24 hours are removed with their files; old completed rows go too', async () => {
  const data = phoneJpeg('i');
  await uploadChunk(s.url, data.subarray(0, 1000), form(data, 0, 1000, { upload_id: 'stale' }));
  await uploadChunk(s.url, data.subarray(0, 1000), form(data, 0, 1000, { upload_id: 'fresh' }));
  const done = await chunkedUpload(s.url, fs.readFileSync(sample('Pentax_K10D.jpg')), { chunkSize: 5000, filename: 'p.jpg', uploadId: 'old-done' });
  assert.equal(done.status, 201);
  const stale = uploadsRow('stale');
  const dayAgo = Date.now() - 24 * 3600_000 - 1000;
  s.writable().prepare('UPDATE uploads SET updated_at = ? WHERE upload_key IN (?, ?)').run(dayAgo, 'id:stale', 'id:old-done');
  const { config, paths, db } = s.ctx;
  const { settings, processing, storage } = s.services;
  const cleaner = new UploadsService({ config, paths, db, settings, processing, storage });
  assert.equal(await cleaner.cleanup(), 2);
  assert.equal(uploadsRow('stale'), undefined);
  assert.ok(!fs.existsSync(path.join(s.dataDir, stale.temp_path)));
  assert.equal(uploadsRow('old-done'), undefined);
  assert.ok(uploadsRow('fresh'), 'a recent partial stays');
  assert.ok(fs.existsSync(path.join(s.dataDir, uploadsRow('fresh').temp_path)));
  assert.equal((await c.get(`/api/photos/${done.body.photo_id}/status`)).status, 200, 'the photo itself stays');
});

test('after a restart the upload resumes from its offset (hash rebuilt from the partial file)', async () => {
  const data = phoneJpeg('j');
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  // Sent as pieces of the real total so the server keeps the upload open.
  for (let start = 0; start < 300_000; start += 100_000) {
    await uploadChunk(s1.url, data.subarray(start, start + 100_000), form(data, start, start + 100_000, { upload_id: 'restart2', filename: 'r.jpg' }));
  }
  await s1.close();
  const s2 = await startTestServer({}, dir);
  try {
    const off = await new TestClient(s2.url).get(`/api/upload-chunk/offset?upload_id=restart2`);
    assert.equal(off.body.received_bytes, 300_000);
    const last = await chunkedUpload(s2.url, data, { chunkSize: 100_000, filename: 'r.jpg', sessionId: 'sess-chunks', uploadId: 'restart2', from: 300_000 });
    assert.equal(last.status, 201);
    const row = s2.ctx.sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(last.body.photo_id) as any;
    assert.equal(row.sha256, sha256(data));
    assert.deepEqual(fs.readFileSync(path.join(dir, row.stored_path)), data);
  } finally {
    await s2.close();
  }
});

test('a chunk is judged against the bytes really in the partial file: one holding less than its row says gets 409 and the upload ends byte-identical', async () => {
  const data = phoneJpeg('k');
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  for (let start = 0; start < 300_000; start += 100_000) {
    await uploadChunk(s1.url, data.subarray(start, start + 100_000), form(data, start, start + 100_000, { upload_id: 'shrunk', filename: 's.jpg' }));
  }
  await s1.close();
  // The partial file lost its tail (a disk that dropped writes, another program): the row says 300,000.
  const db = openSqlite(path.join(dir, 'wedding.db'));
  const upload = db.prepare(`SELECT temp_path, received_bytes FROM uploads WHERE upload_key = 'id:shrunk'`).get() as { temp_path: string; received_bytes: number };
  db.close();
  assert.equal(upload.received_bytes, 300_000);
  fs.truncateSync(path.join(dir, upload.temp_path), 150_000);
  const s2 = await startTestServer({}, dir);
  try {
    const next = await uploadChunk(s2.url, data.subarray(300_000, 400_000), form(data, 300_000, 400_000, { upload_id: 'shrunk', filename: 's.jpg' }));
    assert.equal(next.status, 409, 'not written where the client did not point');
    assert.equal(next.body.received_bytes, 150_000);
    const last = await chunkedUpload(s2.url, data, { chunkSize: 100_000, filename: 's.jpg', sessionId: 'sess-chunks', uploadId: 'shrunk', from: 150_000 });
    assert.equal(last.status, 201, JSON.stringify(last.body));
    const photo = s2.ctx.sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(last.body.photo_id) as { stored_path: string; sha256: string };
    assert.equal(photo.sha256, sha256(data));
    assert.equal(sha256(fs.readFileSync(path.join(dir, photo.stored_path))), sha256(data));
  } finally {
    await s2.close();
  }
});

test('an empty chunk at total_size (what older pages send once told every byte arrived) answers as the last chunk; for an unknown upload it is 409', async () => {
  const data = phoneJpeg('l');
  const done = await chunkedUpload(s.url, data, { chunkSize: 100_000, filename: 'e.jpg', uploadId: 'empty-end' });
  assert.equal(done.status, 201);
  const empty = await uploadChunk(s.url, Buffer.alloc(0), form(data, data.length, data.length, { upload_id: 'empty-end', filename: 'e.jpg' }));
  assert.equal(empty.status, 201, JSON.stringify(empty.body));
  assert.equal(empty.body.photo_id, done.body.photo_id);
  const unknown = await uploadChunk(s.url, Buffer.alloc(0), form(data, data.length, data.length, { upload_id: 'never-sent', filename: 'e.jpg' }));
  assert.equal(unknown.status, 409);
  assert.equal(unknown.body.received_bytes, 0);
});
