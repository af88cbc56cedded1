// Uploads held up against careless and hostile clients: the storage limit and free-space floor,
// caps on unfinished uploads, a last chunk that ends short, and a client that stops sending.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { NO_ROOM } from '../../server/storage/storage.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { sha256, tinyImage, uploadChunk, uploadFile, type ChunkForm } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer({ BODY_IDLE_TIMEOUT_S: '1' });
});
after(() => s.close());

const jpegOf = async (size: number, seed: number) => {
  const img = await tinyImage('jpeg', seed);
  return Buffer.concat([img, Buffer.alloc(size - img.length, seed)]);
};
const form = (data: Buffer, start: number, end: number, o: Partial<ChunkForm> = {}): ChunkForm => ({
  chunk_start: start,
  chunk_end: end,
  total_size: data.length,
  filename: 'clip.jpg',
  session_id: 'sess-public',
  is_last_chunk: end === data.length,
  ...o,
});
const count = (sql: string, ...args: unknown[]) => Number((s.ctx.sqlite.prepare(sql).get(...args) as { n: number }).n);
const offsetOf = async (base: string, uploadId: string) =>
  (await new TestClient(base).get(`/api/upload-chunk/offset?upload_id=${uploadId}`)).body.received_bytes as number;

test('STORAGE_LIMIT_GB and MIN_FREE_MB refuse an upload with 507 and keep nothing of it', async () => {
  // About 1 MB of room: a small photo fits, a bigger single or chunked upload does not.
  const small = await startTestServer({ STORAGE_LIMIT_GB: '0.001' });
  try {
    assert.equal((await uploadFile(small.url, await tinyImage('jpeg', 1), 'fits.jpg')).status, 201);
    const photos = () => Number((small.ctx.sqlite.prepare('SELECT count(*) n FROM photos').get() as { n: number }).n);
    const big = await jpegOf(1_500_000, 2);
    const single = await uploadFile(small.url, big, 'big.jpg');
    assert.equal(single.status, 507);
    assert.deepEqual(single.body, { success: false, error: NO_ROOM, code: 'storage_full' });
    const first = await uploadChunk(small.url, big.subarray(0, 100_000), form(big, 0, 100_000, { upload_id: 'over-limit' }));
    assert.equal(first.status, 507, 'judged by total_size at the first chunk');
    assert.equal(first.body.error, NO_ROOM);
    assert.equal(photos(), 1);
    assert.equal(Number((small.ctx.sqlite.prepare('SELECT count(*) n FROM uploads').get() as { n: number }).n), 0);
    assert.deepEqual(fs.readdirSync(small.ctx.paths.incoming), [], 'nothing of a refused upload is kept');
  } finally {
    await small.close();
  }
  // A free-space floor larger than any disk: every new upload is refused.
  const floor = await startTestServer({ MIN_FREE_MB: String(1024 * 1024 * 1024) });
  try {
    const r = await uploadFile(floor.url, await tinyImage('png', 3), 'floor.png');
    assert.equal(r.status, 507);
    assert.equal(r.body.error, NO_ROOM);
    assert.equal(Number((floor.ctx.sqlite.prepare('SELECT count(*) n FROM photos').get() as { n: number }).n), 0);
  } finally {
    await floor.close();
  }
});

test('at most 20 unfinished uploads per session_id: the 21st is 429 with Retry-After', async () => {
  const data = await jpegOf(50_000, 4);
  for (let i = 0; i < 20; i++) {
    const r = await uploadChunk(s.url, data.subarray(0, 1000), form(data, 0, 1000, { upload_id: `cap-${i}`, session_id: 'sess-cap' }));
    assert.equal(r.status, 200, `upload ${i}`);
  }
  const res = await fetch(`${s.url}/api/upload-chunk`, { method: 'POST', body: formData(data.subarray(0, 1000), form(data, 0, 1000, { upload_id: 'cap-20', session_id: 'sess-cap' })) });
  assert.equal(res.status, 429);
  assert.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After in seconds');
  assert.equal(((await res.json()) as { code: string }).code, 'rate_limited');
  assert.equal(count(`SELECT count(*) n FROM uploads WHERE upload_key = 'id:cap-20'`), 0);
  // Resuming one already open is not a new one; another session from the same address may start.
  assert.equal((await uploadChunk(s.url, data.subarray(1000, 2000), form(data, 1000, 2000, { upload_id: 'cap-3', session_id: 'sess-cap' }))).status, 200);
  assert.equal((await uploadChunk(s.url, data.subarray(0, 1000), form(data, 0, 1000, { upload_id: 'other-sess', session_id: 'sess-other' }))).status, 200);
});

test('at most 1,000 unfinished uploads per client address, across sessions', async () => {
  const data = await jpegOf(20_000, 5);
  // Most of them opened earlier (as rows with their client address), the last ones over HTTP.
  const address = (s.ctx.sqlite.prepare(`SELECT client_address a FROM uploads WHERE client_address IS NOT NULL LIMIT 1`).get() as { a: string }).a;
  const insert = s.writable().prepare(
    `INSERT INTO uploads (id, upload_key, session_id, filename, total_size, temp_path, created_at, updated_at, client_address) VALUES (?, ?, ?, 'x.jpg', 1000, 'media/incoming/none', ?, ?, ?)`,
  );
  const open = count(`SELECT count(*) n FROM uploads WHERE status = 'receiving' AND client_address = ?`, address);
  for (let n = 0; n < 990 - open; n++) insert.run(`seed-${n}`, `id:addr-seed-${n}`, `seed-sess-${Math.floor(n / 20)}`, Date.now(), Date.now(), address);
  for (let n = 0; n < 10; n++) {
    const r = await uploadChunk(s.url, data.subarray(0, 500), form(data, 0, 500, { upload_id: `addr-${n}`, session_id: `addr-sess-${n}` }));
    assert.equal(r.status, 200);
  }
  assert.equal(count(`SELECT count(*) n FROM uploads WHERE status = 'receiving' AND client_address = ?`, address), 1000);
  const over = await uploadChunk(s.url, data.subarray(0, 500), form(data, 0, 500, { upload_id: 'addr-over', session_id: 'a-new-session' }));
  assert.equal(over.status, 429);
  assert.equal(over.body.code, 'rate_limited');
  s.writable().prepare(`DELETE FROM uploads WHERE upload_key LIKE 'id:addr-%'`).run();
});

test('a last chunk that ends before total_size is 400 and the partial upload is dropped', async () => {
  const data = await jpegOf(30_000, 6);
  for (const fieldsAfter of [false, true]) {
    const id = `short-${fieldsAfter}`;
    assert.equal((await uploadChunk(s.url, data.subarray(0, 10_000), form(data, 0, 10_000, { upload_id: id }))).status, 200);
    const part = (s.ctx.sqlite.prepare('SELECT temp_path FROM uploads WHERE upload_key = ?').get(`id:${id}`) as { temp_path: string }).temp_path;
    const short = await uploadChunk(s.url, data.subarray(10_000, 20_000), { ...form(data, 10_000, 20_000, { upload_id: id }), is_last_chunk: true }, fieldsAfter);
    assert.equal(short.status, 400);
    assert.equal(short.body.code, 'invalid_input');
    assert.equal(await offsetOf(s.url, id), 0, 'the offset call answers 0');
    assert.ok(!fs.existsSync(`${s.dataDir}/${part}`), 'the partial file is gone');
  }
});

function formData(bytes: Buffer, f: ChunkForm): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(f)) if (v !== undefined) fd.append(k, String(v));
  fd.append('file', new Blob([new Uint8Array(bytes)]), 'blob');
  return fd;
}

test('a client that stops sending mid-body is cut off; the chunk keeps what arrived and resumes', async () => {
  const data = await jpegOf(400_000, 7);
  const boundary = 'slowclientboundary';
  const f = form(data, 0, data.length, { upload_id: 'slow', session_id: 'sess-slow' });
  const head = Object.entries(f)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const fileHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + Buffer.byteLength(fileHead) + data.length + Buffer.byteLength(tail);
  const sent = 150_000;
  const socket = net.connect(s.port, '127.0.0.1');
  const closed = new Promise<number>((resolve) => {
    const t0 = Date.now();
    socket.on('close', () => resolve(Date.now() - t0));
    socket.on('error', () => undefined);
  });
  socket.write(
    `POST /api/upload-chunk HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
  );
  socket.write(head + fileHead);
  socket.write(data.subarray(0, sent)); // ...and then nothing more
  const waited = await Promise.race([closed, new Promise<number>((r) => setTimeout(() => r(-1), 10_000))]);
  assert.ok(waited > 0, 'the server ended the stalled request');
  socket.destroy();
  const kept = await offsetOf(s.url, 'slow');
  assert.equal(kept, sent, 'every byte that arrived is kept for the resume');
  const rest = await uploadChunk(s.url, data.subarray(kept), form(data, kept, data.length, { upload_id: 'slow', session_id: 'sess-slow' }));
  assert.equal(rest.status, 201);
  const row = s.ctx.sqlite.prepare('SELECT sha256 FROM photos WHERE id = ?').get(rest.body.photo_id) as { sha256: string };
  assert.equal(row.sha256, sha256(data));
});

test('a body that keeps arriving slowly is not cut off', async () => {
  // About 4 KiB/s, over the minimum rate (1 KiB/s), and slower in total than the idle timeout.
  const data = fs.readFileSync(sample('Canon_40D.jpg'));
  const boundary = 'steadyboundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="session_id"\r\n\r\nsteady\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="steady.jpg"\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const socket = net.connect(s.port, '127.0.0.1');
  let answer = '';
  socket.on('data', (d) => (answer += d.toString()));
  const closed = new Promise((r) => socket.on('close', r));
  socket.write(`POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
  // Three pieces 600 ms apart: slower than the whole timeout (1 s) in total, never idle that long.
  const third = Math.ceil(body.length / 3);
  for (let i = 0; i < 3; i++) {
    socket.write(body.subarray(i * third, (i + 1) * third));
    await new Promise((r) => setTimeout(r, 600));
  }
  await closed;
  assert.match(answer, /^HTTP\/1\.1 201/);
});
