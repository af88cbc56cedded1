// Tables: a QR sign per table (/live?table=N), uploads carrying their table (single and chunked,
// out of range 400), the gallery's filter and item field, the counts per table and the tables with photos for the wall and the gallery.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { adminClient, startTestServer, TestClient, userClient } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { tinyImage, uploadChunk, waitForStatus } from '../helpers/uploads.js';
import Database from 'better-sqlite3';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
before(async () => {
  s = await startTestServer({ PUBLIC_URL: 'https://our-wedding.example' });
  admin = await adminClient(s.url);
});
after(() => s.close());

async function upload(bytes: Buffer, table?: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('session_id', 'tables-session');
  if (table !== undefined) form.append('table', table);
  form.append('file', new Blob([new Uint8Array(bytes)]), 'table.jpg');
  const res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

async function shown(id: string): Promise<void> {
  assert.equal(await waitForStatus(s.url, id), 'complete');
  assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
}

async function decodeSvg(svg: string): Promise<string | undefined> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 300 }).resize(600).flatten({ background: '#fff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

test('without tables an upload naming one is 400 and stores nothing; the setting takes 0-200 only', async () => {
  const r = await upload(await tinyImage('jpeg', 1), '3');
  assert.equal(r.status, 400);
  assert.match(r.body.error, /no table signs/);
  for (const bad of [-1, 201, 2.5, '7']) assert.equal((await admin.put('/admin/api/settings', { tables: bad })).status, 400, String(bad));
  assert.equal((await admin.put('/admin/api/settings', { tables: 10 })).status, 200);
  assert.equal((await new TestClient(s.url).get('/api/settings')).body.settings.tables, 10);
});

test('uploads from a table sign carry it (single and chunked); out of range is 400; the gallery filters by table', async () => {
  const seven = await upload(await tinyImage('jpeg', 2), '7');
  assert.equal(seven.status, 201, JSON.stringify(seven.body));
  const sevenAgain = await upload(await tinyImage('jpeg', 3), ' 7 ');
  const three = await upload(await tinyImage('jpeg', 4), '3');
  const none = await upload(await tinyImage('jpeg', 5));
  for (const bad of ['11', '0', 'seven', '-2', '1e1']) {
    const r = await upload(await tinyImage('jpeg', 6), bad);
    assert.equal(r.status, 400, bad);
    assert.match(r.body.error, /table must be a whole number from 1 to 10/);
  }
  // A chunked upload: the table rides on every chunk, the photo made by the last one carries it.
  const bytes = await tinyImage('jpeg', 8, 400, 300);
  const half = Math.ceil(bytes.length / 2);
  const base = { total_size: bytes.length, filename: 'chunked.jpg', session_id: 'tables-chunked', upload_id: 'tables-upload-0001', table: '3' };
  assert.equal((await uploadChunk(s.url, bytes.subarray(0, half), { ...base, chunk_start: 0, chunk_end: half, is_last_chunk: false })).status, 200);
  const done = await uploadChunk(s.url, bytes.subarray(half), { ...base, chunk_start: half, chunk_end: bytes.length, is_last_chunk: true });
  assert.equal(done.status, 201, JSON.stringify(done.body));
  const outOfRange = { ...base, upload_id: 'tables-upload-0002', table: '12' };
  const badChunk = await uploadChunk(s.url, bytes.subarray(0, half), { ...outOfRange, chunk_start: 0, chunk_end: half, is_last_chunk: false });
  assert.equal(badChunk.status, 400);

  const ids = [seven.body.photo_id, sevenAgain.body.photo_id, three.body.photo_id, none.body.photo_id, done.body.photo_id];
  for (const id of ids) await shown(id);
  const atSeven = (await new TestClient(s.url).get('/api/photos?table=7')).body;
  assert.deepEqual(atSeven.photos.map((p: { id: string }) => p.id).sort(), [seven.body.photo_id, sevenAgain.body.photo_id].sort());
  assert.equal(atSeven.pagination.total, 2);
  assert.ok(atSeven.photos.every((p: { table: number }) => p.table === 7));
  const all = (await new TestClient(s.url).get('/api/photos')).body.photos as { id: string; table: number | null }[];
  assert.equal(all.find((p) => p.id === none.body.photo_id)!.table, null);
  assert.equal(all.find((p) => p.id === done.body.photo_id)!.table, 3);
  assert.equal((await new TestClient(s.url).get('/api/photos?table=abc')).status, 400);
  assert.equal((await new TestClient(s.url).get('/api/photos?table=9')).body.pagination.total, 0);

  // Counts per table for every signed-in role, and the wall's busiest three (visible photos only).
  const family = await userClient(s.url, admin, 'family');
  const counts = (await family.get('/admin/api/wall/tables')).body.tables as { table: number; count: number }[];
  assert.equal(counts.length, 10);
  assert.deepEqual(counts.slice(0, 3), [
    { table: 3, count: 2 },
    { table: 7, count: 2 },
    { table: 1, count: 0 },
  ]);
  assert.equal((await new TestClient(s.url).get('/admin/api/wall/tables')).status, 401);
  assert.equal((await admin.post(`/admin/api/photos/${three.body.photo_id}/hide`)).status, 200);
  assert.deepEqual((await new TestClient(s.url).get('/api/wall/tables')).body.tables, [
    { table: 7, count: 2 },
    { table: 3, count: 1 },
  ]);
});

test('a table sign\'s QR code decodes to /live?table=N (with its language when asked); a table out of range is 400', async () => {
  const c = new TestClient(s.url);
  assert.equal(await decodeSvg(await (await c.fetch('/api/qr.svg?table=7')).text()), 'https://our-wedding.example/live?table=7');
  assert.equal(await decodeSvg(await (await c.fetch('/api/qr.svg?table=12&lang=de')).text()), 'https://our-wedding.example/live?table=12&lang=de');
  assert.equal((await c.get('/api/public-url?table=7')).body.live_url, 'https://our-wedding.example/live?table=7');
  for (const bad of ['0', '201', 'x', '7.5']) assert.equal((await c.fetch(`/api/qr.svg?table=${bad}`)).status, 400, bad);
});

test('a chunked upload whose bytes were all in before a restart, stored by the resume\'s offset question, keeps its table', async () => {
  const dataDir = tempDir();
  const first = await startTestServer({}, dataDir);
  const own = await adminClient(first.url);
  assert.equal((await own.put('/admin/api/settings', { tables: 10 })).status, 200);
  const bytes = await tinyImage('jpeg', 21, 400, 300);
  const half = Math.ceil(bytes.length / 2);
  const base = { total_size: bytes.length, filename: 'restart.jpg', session_id: 'tables-restart', upload_id: 'tables-upload-restart', table: '4' };
  assert.equal((await uploadChunk(first.url, bytes.subarray(0, half), { ...base, chunk_start: 0, chunk_end: half, is_last_chunk: false })).status, 200);
  await first.close();
  // As if the server had died after the last chunk's bytes were synced and before it stored the
  // file: every byte in the partial file and its row, no photo yet, nobody remembered as its sender.
  const db = new Database(path.join(dataDir, 'wedding.db'));
  const row = db.prepare('SELECT temp_path FROM uploads WHERE status = ?').get('receiving') as { temp_path: string };
  fs.appendFileSync(path.join(dataDir, row.temp_path), bytes.subarray(half));
  db.prepare('UPDATE uploads SET received_bytes = total_size').run();
  db.close();
  const second = await startTestServer({}, dataDir);
  try {
    const q = new URLSearchParams({ upload_id: base.upload_id, session_id: base.session_id, filename: base.filename, total_size: String(bytes.length), table: '4' });
    const answer = await new TestClient(second.url).get(`/api/upload-chunk/offset?${q}`);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.complete, true);
    const id = String(answer.body.photo_id);
    assert.equal(await waitForStatus(second.url, id), 'complete');
    assert.deepEqual(second.writable().prepare('SELECT table_number FROM photos WHERE id = ?').get(id), { table_number: 4 });
    // A table out of range in the question is refused like the chunks' field.
    const bad = new URLSearchParams({ ...Object.fromEntries(q), upload_id: 'tables-upload-other', table: '11' });
    assert.equal((await new TestClient(second.url).get(`/api/upload-chunk/offset?${bad}`)).status, 400);
  } finally {
    await second.close();
  }
});
