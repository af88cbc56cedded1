import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient, userClient } from '../helpers/server.js';
import { placePhoto, run, saveBody, sha256File, sparseFile, type PlacedPhoto } from './export-fixtures.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
const work = tempDir('wedding-export-');
const photos: Record<string, PlacedPhoto> = {};

before(async () => {
  s = await startTestServer({ COUPLE_NAMES: 'Zoë & Luc' });
  admin = new TestClient(s.url);
  await admin.login();
  photos.canon = await placePhoto(s, { source: sample('Canon_40D.jpg'), is_visible: 1, date_taken: '2008-05-30T15:56:01', camera_make: 'Canon', camera_model: 'Canon EOS 40D', width: 100, height: 68 });
  photos.nikon = await placePhoto(s, { source: sample('Nikon_D70.jpg'), is_visible: 0, date_taken: '2008:03:15 09:12:44', camera_make: 'NIKON CORPORATION', camera_model: 'NIKON D70' });
  photos.iphone = await placePhoto(s, { source: sample('hdr_iphone_hdr_YES.jpg'), is_visible: 1, date_taken: '2014-10-05T11:20:30', camera_make: 'Apple', camera_model: 'iPhone 6', width: 3264, height: 2448 });
  photos.heic = await placePhoto(s, { source: sample('heic_IMG_5195.HEIC'), original_filename: 'IMG_5195.HEIC', content_type: 'image/heic', is_visible: 0 });
  photos.xmp = await placePhoto(s, { source: sample('xmp_no_exif.jpg'), is_visible: 1 });
  // Two guests' phones both call their picture image.jpg, taken the same second on the same model.
  const same = { original_filename: 'image.jpg', date_taken: '2026-06-07T16:42:10', camera_make: 'Google', camera_model: 'Pixel 8', is_visible: 1 };
  photos.dupA = await placePhoto(s, { source: sample('Pentax_K10D.jpg'), ...same });
  photos.dupB = await placePhoto(s, { source: sample('Panasonic_DMC-FZ30.jpg'), ...same, original_filename: 'IMAGE.JPG' });
  photos.evil = await placePhoto(s, { source: sample('mobile_jolla.jpg'), original_filename: '../..\u0007/.hidden:name?.jpg', is_visible: 0, camera_make: 'Jolla', camera_model: 'Jolla/One' });
});
after(async () => {
  await s.close();
  fs.rmSync(work, { recursive: true, force: true });
});

interface Extracted {
  zip: string;
  dir: string;
  entries: string[];
  manifest: { files: any[]; missing: string[]; unreadable: any[] };
}

let n = 0;
/** Saves the response, checks it with unzip -t, extracts it and reads manifest.json. */
async function extract(res: Response): Promise<Extracted> {
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'application/zip');
  const zip = path.join(work, `a${++n}.zip`);
  await saveBody(res, zip);
  const t = await run('unzip', ['-t', zip]);
  assert.equal(t.code, 0, t.stdout + t.stderr);
  assert.match(t.stdout, /No errors detected/);
  const list = await run('unzip', ['-Z1', zip]);
  const entries = list.stdout.split('\n').filter(Boolean);
  const dir = path.join(work, `x${n}`);
  const x = await run('unzip', ['-q', zip, '-d', dir]);
  assert.equal(x.code, 0, x.stderr);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  return { zip, dir, entries, manifest };
}

const byId = (m: Extracted['manifest']) => new Map(m.files.map((f) => [f.id, f]));

describe('GET /admin/api/export.zip', () => {
  test('scope=all streams every original byte for byte, manifest.json last with checksums of what was written', async () => {
    const res = await admin.fetch('/admin/api/export.zip?scope=all');
    const cd = res.headers.get('content-disposition') ?? '';
    assert.match(cd, /^attachment; filename="Zoe-and-Luc-wedding-photos-\d{4}-\d{2}-\d{2}\.zip"; filename\*=UTF-8''Zo%C3%AB-and-Luc-wedding-photos-/);
    const x = await extract(res);
    assert.equal(x.entries.at(-1), 'manifest.json', 'manifest.json is the last entry');
    assert.equal(x.entries.length, Object.keys(photos).length + 1);
    assert.deepEqual(new Set(x.manifest.files.map((f) => f.name)), new Set(x.entries.slice(0, -1)));
    assert.deepEqual(x.manifest.missing, []);
    assert.deepEqual(x.manifest.unreadable, []);
    const files = byId(x.manifest);
    for (const p of Object.values(photos)) {
      const f = files.get(p.id);
      assert.ok(f, `${p.row.original_filename} is in the manifest`);
      const extracted = path.join(x.dir, f.name);
      assert.ok(fs.readFileSync(extracted).equals(fs.readFileSync(p.file)), `${f.name} equals its original byte for byte`);
      assert.equal(f.sha256, await sha256File(p.file));
      assert.equal(f.file_size, fs.statSync(p.file).size);
      assert.equal(f.original_filename, p.row.original_filename);
      assert.equal(f.content_type, p.row.content_type);
      assert.equal(f.upload_timestamp, p.row.upload_timestamp);
      assert.equal(f.date_taken, p.row.date_taken);
      assert.equal(f.camera_make, p.row.camera_make);
      assert.equal(f.camera_model, p.row.camera_model);
      assert.equal(f.width, p.row.width);
      assert.equal(f.height, p.row.height);
      assert.equal(f.is_visible, p.row.is_visible === 1);
      assert.deepEqual(Object.keys(f), ['name', 'id', 'original_filename', 'content_type', 'file_size', 'sha256', 'upload_timestamp', 'date_taken', 'camera_make', 'camera_model', 'width', 'height', 'is_visible', 'uploader_name']);
    }
  });

  test('entries read "<date taken> <camera> - <original name>", sanitized and de-duplicated', async () => {
    const x = await extract(await admin.fetch('/admin/api/export.zip'));
    const files = byId(x.manifest);
    assert.equal(files.get(photos.canon.id).name, '2008-05-30 15-56-01 Canon EOS 40D - Canon_40D.jpg');
    assert.equal(files.get(photos.nikon.id).name, '2008-03-15 09-12-44 NIKON D70 - Nikon_D70.jpg');
    assert.equal(files.get(photos.iphone.id).name, '2014-10-05 11-20-30 Apple iPhone 6 - hdr_iphone_hdr_YES.jpg');
    // No date taken: the upload time names it instead.
    assert.equal(files.get(photos.xmp.id).name, '2026-06-07 12-00-04 - xmp_no_exif.jpg');
    assert.equal(files.get(photos.heic.id).name, '2026-06-07 12-00-03 - IMG_5195.HEIC');
    assert.equal(files.get(photos.dupA.id).name, '2026-06-07 16-42-10 Google Pixel 8 - image.jpg');
    assert.equal(files.get(photos.dupB.id).name, '2026-06-07 16-42-10 Google Pixel 8 - IMAGE (2).JPG', 'names differing only in case are duplicates too');
    const evil = files.get(photos.evil.id).name as string;
    assert.equal(evil, '2026-06-07 12-00-07 Jolla_One - _.._.hidden_name_.jpg');
    for (const name of x.entries) {
      assert.doesNotMatch(name, /[/\\\u0000-\u001f]/);
      assert.doesNotMatch(name, /^\./);
    }
    // Extracted side by side in one folder: nothing overwrote anything.
    assert.equal(fs.readdirSync(x.dir).length, x.entries.length);
  });

  test('scope=visible leaves hidden photos out', async () => {
    const res = await admin.fetch('/admin/api/export.zip?scope=visible');
    assert.match(res.headers.get('content-disposition') ?? '', /wedding-photos-visible-/);
    const x = await extract(res);
    const ids = new Set(x.manifest.files.map((f) => f.id));
    const visible = Object.values(photos).filter((p) => p.row.is_visible === 1);
    assert.deepEqual(ids, new Set(visible.map((p) => p.id)));
    assert.ok(x.manifest.files.every((f) => f.is_visible === true));
    assert.equal(x.entries.length, visible.length + 1);
  });

  test('HEAD answers the headers without building an archive', async () => {
    const res = await admin.fetch('/admin/api/export.zip?scope=all', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; /);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
  });

  test('a bad scope is 400 with a readable error', async () => {
    for (const q of ['?scope=hidden', '?scope=', '?scope=all&scope=visible']) {
      const r = await admin.get(`/admin/api/export.zip${q}`);
      assert.equal(r.status, 400, q);
      assert.deepEqual(r.body, { success: false, error: 'scope must be "all" or "visible".', code: 'invalid_input' });
    }
  });

  test('without a session: 401, no archive', async () => {
    const guest = new TestClient(s.url);
    const r = await guest.get('/admin/api/export.zip?scope=all');
    assert.equal(r.status, 401);
    assert.equal(r.body.error, 'Please sign in to continue.');
    const p = await guest.post('/admin/api/export.zip', { photo_ids: [photos.canon.id] });
    assert.equal(p.status, 401);
  });

  for (const role of ['family', 'bride', 'groom'] as const) {
    test(`${role} can download everything, hidden photos included`, async () => {
      const c = await userClient(s.url, admin, role);
      const x = await extract(await c.fetch('/admin/api/export.zip?scope=all'));
      assert.equal(x.manifest.files.length, Object.keys(photos).length);
    });
  }
});

describe('POST /admin/api/export.zip (a selection)', () => {
  test('JSON photo_ids: named hidden photos are included, unknown ids listed under "missing"', async () => {
    const ids = [photos.nikon.id, photos.canon.id, 'no-such-photo', photos.heic.id, photos.canon.id];
    const res = await admin.fetch('/admin/api/export.zip', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ photo_ids: ids }) });
    assert.match(res.headers.get('content-disposition') ?? '', /wedding-photos-selected-/);
    const x = await extract(res);
    assert.deepEqual(x.manifest.files.map((f) => f.id), [photos.nikon.id, photos.canon.id, photos.heic.id], 'in the order asked, each once');
    assert.deepEqual(x.manifest.missing, ['no-such-photo']);
    assert.equal(x.manifest.files[0].is_visible, false);
    assert.ok(fs.readFileSync(path.join(x.dir, x.manifest.files[2].name)).equals(fs.readFileSync(photos.heic.file)));
  });

  test('a plain HTML form works: one field holding a JSON list, or the field repeated', async () => {
    const asJson = new URLSearchParams({ photo_ids: JSON.stringify([photos.xmp.id, photos.evil.id]) });
    const a = await extract(await admin.fetch('/admin/api/export.zip', { method: 'POST', body: asJson }));
    assert.deepEqual(a.manifest.files.map((f) => f.id), [photos.xmp.id, photos.evil.id]);
    const repeated = new URLSearchParams([['photo_ids', photos.iphone.id], ['photo_ids', photos.dupB.id]]);
    const b = await extract(await admin.fetch('/admin/api/export.zip', { method: 'POST', body: repeated, headers: { origin: s.url } }));
    assert.deepEqual(b.manifest.files.map((f) => f.id), [photos.iphone.id, photos.dupB.id]);
  });

  test('empty, malformed or oversized photo_ids are 400 with a readable error', async () => {
    const bad: [unknown, RegExp][] = [
      [{}, /non-empty list of photo ids/],
      [{ photo_ids: [] }, /non-empty list/],
      [{ photo_ids: 'not json [' }, /not a photo id/],
      [{ photo_ids: '[1,' }, /not a valid JSON list/],
      [{ photo_ids: [1, 2] }, /not a photo id/],
      [{ photo_ids: ['../etc/passwd'] }, /not a photo id/],
      [{ photo_ids: { a: 1 } }, /non-empty list/],
      [{ photo_ids: Array.from({ length: 10_001 }, (_, i) => `id${i}`) }, /At most 10000 photos/],
    ];
    for (const [body, error] of bad) {
      const r = await admin.post('/admin/api/export.zip', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
      assert.equal(r.body.success, false);
      assert.match(r.body.error, error);
      assert.equal(r.body.code, 'invalid_input');
    }
    const form = await admin.fetch('/admin/api/export.zip', { method: 'POST', body: new URLSearchParams({ photo_ids: '' }) });
    assert.equal(form.status, 400);
    assert.equal((await form.json()).code, 'invalid_input');
    const json = await admin.fetch('/admin/api/export.zip', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"photo_ids": [' });
    assert.equal(json.status, 400);
    assert.equal((await json.json()).code, 'invalid_input');
  });

  test('a form posted from another site is refused', async () => {
    const r = await admin.fetch('/admin/api/export.zip', { method: 'POST', body: new URLSearchParams({ photo_ids: photos.canon.id }), headers: { origin: 'https://evil.example' } });
    assert.equal(r.status, 403);
  });
});

describe('robustness', () => {
  test('an original missing on disk is reported in the manifest and the rest still downloads', async () => {
    const gone = await placePhoto(s, { source: sample('Fujifilm_FinePix_E500.jpg'), is_visible: 1 });
    fs.rmSync(gone.file);
    const res = await admin.fetch('/admin/api/export.zip', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ photo_ids: [photos.canon.id, gone.id] }) });
    const x = await extract(res);
    assert.deepEqual(x.manifest.files.map((f) => f.id), [photos.canon.id]);
    assert.deepEqual(x.manifest.unreadable, [{ id: gone.id, original_filename: 'Fujifilm_FinePix_E500.jpg', error: 'The original file is missing.' }]);
    await s.ctx.db.deleteFrom('photos').where('id', '=', gone.id).execute();
  });
});
