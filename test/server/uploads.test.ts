import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { makeVideo, sha256, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const photo = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const originals = () => fs.readdirSync(s.ctx.paths.originals);

test('a JPEG upload is stored hidden under a generated name and answered 201', async () => {
  const r = await uploadFile(s.url, sample('Canon_40D.jpg'), '../../etc/Canon_40D.jpg', 'sess-1');
  assert.equal(r.status, 201);
  assert.deepEqual(Object.keys(r.body).sort(), ['duplicate', 'duplicate_type', 'photo_id', 'success']);
  assert.equal(r.body.duplicate, false);
  assert.equal(r.body.duplicate_type, null);
  assert.match(r.body.photo_id, /^[A-Za-z0-9_-]{22}$/);
  const row = photo(r.body.photo_id);
  assert.equal(row.original_filename, 'Canon_40D.jpg', 'path parts of the client name are dropped');
  assert.equal(row.stored_path, `media/originals/${r.body.photo_id}.jpg`);
  assert.equal(row.is_visible, 0);
  assert.equal(row.content_type, 'image/jpeg');
  assert.equal(row.session_id, 'sess-1');
  assert.equal(row.file_size, fs.statSync(sample('Canon_40D.jpg')).size);
  assert.equal(row.sha256, sha256(fs.readFileSync(sample('Canon_40D.jpg'))));
  assert.match(row.upload_timestamp, /T.*(Z|[+-]\d\d:\d\d)$/);
  assert.deepEqual(fs.readFileSync(path.join(s.dataDir, row.stored_path)), fs.readFileSync(sample('Canon_40D.jpg')));
  const activity = s.ctx.sqlite.prepare("SELECT description FROM activity WHERE type = 'upload'").all() as { description: string }[];
  assert.ok(activity.some((a) => a.description === 'New photo uploaded: Canon_40D.jpg'));
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
});

test('PNG, GIF and WebP images are accepted by their magic bytes, whatever the name says', async () => {
  const cases = [
    ['png', 'image/png', 'a.png'],
    ['gif', 'image/gif', 'a.gif'],
    ['webp', 'image/webp', 'named-wrongly.jpg'],
  ] as const;
  for (const [format, mime, name] of cases) {
    const r = await uploadFile(s.url, await tinyImage(format, 11), name);
    assert.equal(r.status, 201, format);
    const row = photo(r.body.photo_id);
    assert.equal(row.content_type, mime);
    assert.ok(row.stored_path.endsWith(`.${format}`), row.stored_path);
    assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete', format);
  }
});

test('MP4, MOV and AVI videos are accepted with their video types', async () => {
  const cases = [
    ['mp4', 'video/mp4'],
    ['mov', 'video/quicktime'],
    ['avi', 'video/x-msvideo'],
  ] as const;
  for (const [kind, mime] of cases) {
    const r = await uploadFile(s.url, makeVideo(kind), `clip.${kind}`);
    assert.equal(r.status, 201, kind);
    assert.equal(photo(r.body.photo_id).content_type, mime);
    assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete', kind);
  }
  const activity = s.ctx.sqlite.prepare("SELECT description FROM activity WHERE type = 'upload'").all() as { description: string }[];
  assert.ok(activity.some((a) => a.description === 'New video uploaded: clip.mp4'));
});

test('a text file named .jpg, a TIFF and a Matroska (not WebM) file are 415 and nothing is kept', async () => {
  const before = originals().length;
  const rows = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;
  const n = rows();
  for (const [data, name] of [
    [Buffer.from('This is only text pretending to be a photo.\n'.repeat(10)), 'holiday.jpg'],
    [Buffer.concat([Buffer.from('II*\0'), Buffer.alloc(200, 1)]), 'scan.tif'],
    // An EBML header whose DocType is "matroska": only WebM is accepted.
    [Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88]), Buffer.from('matroska'), Buffer.alloc(200, 2)]), 'clip.webm'],
  ] as const) {
    const r = await uploadFile(s.url, data, name);
    assert.equal(r.status, 415, name);
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'unsupported_type');
    assert.match(r.body.error, /not supported/);
  }
  assert.equal(originals().length, before);
  assert.equal(rows(), n);
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming), [], 'no temp file is left behind');
});

test('an exact duplicate answers 200 with the existing id and stores nothing new', async () => {
  const data = await tinyImage('png', 77);
  const first = await uploadFile(s.url, data, 'first.png');
  assert.equal(first.status, 201);
  const count = originals().length;
  const again = await uploadFile(s.url, data, 'renamed.png', 'another-session');
  assert.equal(again.status, 200);
  assert.deepEqual(again.body, { success: true, photo_id: first.body.photo_id, duplicate: true, duplicate_type: 'exact' });
  assert.equal(originals().length, count);
});

test('ten identical uploads at the same moment store exactly one file and one row', async () => {
  const data = await tinyImage('jpeg', 123, 400, 300);
  const before = originals().length;
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => uploadFile(s.url, data, `same-${i}.jpg`)));
  const ids = new Set(answers.map((a) => a.body.photo_id));
  assert.equal(ids.size, 1);
  assert.equal(answers.filter((a) => a.status === 201).length, 1);
  assert.equal(answers.filter((a) => a.status === 200 && a.body.duplicate === true).length, 9);
  assert.equal(originals().length, before + 1);
  const n = s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos WHERE sha256 = ?').get(sha256(data)) as { n: number };
  assert.equal(n.n, 1);
  assert.deepEqual(fs.readdirSync(s.ctx.paths.incoming), []);
});

test('thirty different uploads at once are all stored once', async () => {
  const images = await Promise.all(Array.from({ length: 30 }, (_, i) => tinyImage('png', 1000 + i, 32, 32)));
  const answers = await Promise.all(images.map((img, i) => uploadFile(s.url, img, `guest-${i}.png`)));
  assert.ok(answers.every((a) => a.status === 201), JSON.stringify(answers.filter((a) => a.status !== 201)));
  assert.equal(new Set(answers.map((a) => a.body.photo_id)).size, 30);
  for (const [i, a] of answers.entries()) {
    const row = photo(a.body.photo_id);
    assert.equal(row.sha256, sha256(images[i]));
    assert.deepEqual(fs.readFileSync(path.join(s.dataDir, row.stored_path)), images[i]);
  }
});

test('a request without a file part or without multipart is a 400 with a readable error', async () => {
  const form = new FormData();
  form.append('session_id', 'x');
  let res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form });
  assert.equal(res.status, 400);
  const noFile = await res.json();
  assert.equal(noFile.code, 'invalid_input');
  assert.match(noFile.error, /file/);
  res = await fetch(`${s.url}/api/upload`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(res.status, 400);
  assert.match((await res.json()).error, /multipart/);
  const empty = await uploadFile(s.url, Buffer.alloc(0), 'empty.jpg');
  assert.equal(empty.status, 400);
  assert.match(empty.body.error, /empty/);
});

test('the status poll (photos module) answers the photo status and 404 JSON for an unknown id', async () => {
  const r = await uploadFile(s.url, await tinyImage('png', 5), 'status.png');
  await waitForStatus(s.url, r.body.photo_id);
  const c = new TestClient(s.url);
  const ok = await c.get(`/api/photos/${r.body.photo_id}/status`);
  assert.deepEqual(ok.body, { success: true, status: 'complete', duplicate_type: null });
  const missing = await c.get('/api/photos/does-not-exist/status');
  assert.equal(missing.status, 404);
  assert.equal(missing.body.success, false);
  assert.equal(missing.body.code, 'not_found');
  assert.equal(typeof missing.body.error, 'string');
});

test('uploads switched off answer 403 with the contract message, for both routes', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  assert.equal((await admin.put('/admin/api/settings', { uploads_enabled: false })).status, 200);
  try {
    const r = await uploadFile(s.url, await tinyImage('png', 9), 'off.png');
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { success: false, error: 'Uploads are not enabled yet', code: 'uploads_disabled' });
    const form = new FormData();
    form.append('file', new Blob([Buffer.alloc(10)]), 'x');
    const c = await fetch(`${s.url}/api/upload-chunk`, { method: 'POST', body: form });
    assert.equal(c.status, 403);
    assert.deepEqual(await c.json(), { success: false, error: 'Uploads are not enabled yet', code: 'uploads_disabled' });
  } finally {
    await admin.put('/admin/api/settings', { uploads_enabled: true });
  }
});

test('a file over MAX_UPLOAD_GB is 413 and its temp file is removed', async () => {
  const small = await startTestServer({ MAX_UPLOAD_GB: '0.000001' }); // about 1 KiB
  try {
    const big = await tinyImage('png', 3, 200, 200);
    assert.ok(big.length > 1074);
    const r = await uploadFile(small.url, big, 'big.png');
    assert.equal(r.status, 413);
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'too_large');
    assert.match(r.body.error, /too large/);
    assert.deepEqual(fs.readdirSync(small.ctx.paths.incoming), []);
    assert.deepEqual(fs.readdirSync(small.ctx.paths.originals), []);
    // Declared far over the limit: refused before the body is read.
    const huge = await uploadFile(small.url, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(3 * 1024 * 1024)]), 'huge.jpg');
    assert.equal(huge.status, 413);
    assert.equal(huge.body.code, 'too_large');
    assert.match(huge.body.error, /too large/);
    const tiny = await uploadFile(small.url, await tinyImage('gif', 1, 4, 4), 'tiny.gif');
    assert.equal(tiny.status, 201, 'a file under the limit still goes through');
  } finally {
    await small.close();
  }
});
