import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openDatabase } from '../../server/db/open.js';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { serverWithClient, TestClient, type TestServer } from '../helpers/server.js';
import { addPhoto, clearPhotos, testVideo } from './photos-fixture.js';

let s: TestServer;
let guest: TestClient;
before(async () => ({ s, client: guest } = await serverWithClient()));
after(() => s.close());

const GALLERY_FIELDS = ['backblaze_url', 'camera_make', 'camera_model', 'challenge', 'content_type', 'date_taken', 'duration', 'hearted', 'hearts', 'height', 'highlighted', 'id', 'moment', 'original_filename', 'table', 'thumbnail_url', 'upload_timestamp', 'uploader_name', 'width'];
const CAMERAS = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg'];
const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 12, minute)).toISOString();

describe('GET /api/photos', () => {
  beforeEach(() => clearPhotos(s));

  test('lists visible photos only, newest first, with exactly the gallery item fields', async () => {
    const older = await addPhoto(s, { visible: true, uploadTimestamp: at(1), file: sample('Nikon_D70.jpg') });
    const hidden = await addPhoto(s, { visible: false, uploadTimestamp: at(2) });
    const newer = await addPhoto(s, { visible: true, uploadTimestamp: at(3) });
    const r = await guest.get('/api/photos');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.deepEqual(r.body.photos.map((p: any) => p.id), [newer, older]);
    assert.ok(!r.body.photos.some((p: any) => p.id === hidden));
    assert.deepEqual(r.body.pagination, { total: 2, limit: 20, offset: 0, has_more: false });
    const item = r.body.photos[1];
    assert.deepEqual(Object.keys(item).sort(), GALLERY_FIELDS);
    assert.equal(item.content_type, 'image/jpeg');
    assert.equal(item.original_filename, 'Nikon_D70.jpg');
    assert.equal(item.camera_make, 'NIKON CORPORATION');
    assert.equal(item.camera_model, 'NIKON D70');
    assert.equal(item.upload_timestamp, at(1));
    assert.match(item.date_taken, /^2008-03-15T/);
    assert.equal(typeof item.width, 'number');
    assert.equal(typeof item.height, 'number');
    assert.equal(item.thumbnail_url, `/media/${older}/thumb?v=1`);
    assert.equal(item.backblaze_url, `/media/${older}/display?v=1`);
    // A listed URL serves.
    const thumb = await guest.fetch(item.thumbnail_url);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/webp');
  });

  test('thumbnail_url and backblaze_url are null until the derivatives exist', async () => {
    const id = await addPhoto(s, { visible: true, derivatives: false });
    const r = await guest.get('/api/photos');
    const item = r.body.photos.find((p: any) => p.id === id);
    assert.equal(item.thumbnail_url, null);
    assert.equal(item.backblaze_url, null);
    assert.equal((await guest.fetch(`/media/${id}/thumb`)).status, 404);
  });

  test('a listed page follows every change at once, from this server or another connection', async () => {
    const a = await addPhoto(s, { visible: true, derivatives: false, uploadTimestamp: at(1) });
    const b = await addPhoto(s, { visible: true, derivatives: false, uploadTimestamp: at(2) });
    const ids = async () => (await guest.get('/api/photos?limit=5')).body.photos.map((p: any) => [p.id, p.thumbnail_url]);
    assert.deepEqual(await ids(), [[b, null], [a, null]]);
    assert.deepEqual(await ids(), [[b, null], [a, null]], 'asked twice: same answer');
    // Processing finishing writes the derivative paths.
    await s.ctx.db.updateTable('photos').set({ thumb_path: `media/derived/${a}/thumb-v3.webp`, derivative_version: 3 }).where('id', '=', a).execute();
    assert.deepEqual(await ids(), [[b, null], [a, `/media/${a}/thumb?v=3`]]);
    // Another process (a maintenance script) hides a photo through its own connection.
    const other = openDatabase(s.ctx.paths.database);
    try {
      other.prepare('UPDATE photos SET is_visible = 0 WHERE id = ?').run(b);
    } finally {
      other.close();
    }
    assert.deepEqual((await ids()).map((x: any) => x[0]), [a]);
    assert.equal((await guest.get('/api/photos')).body.pagination.total, 1);
  });

  test('photos with the same upload time keep a stable order and pages never overlap', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push(await addPhoto(s, { visible: true, derivatives: false, uploadTimestamp: at(i % 3 === 0 ? 5 : i) }));
    const seen: string[] = [];
    for (let offset = 0; offset < 25; offset += 7) {
      const r = await guest.get(`/api/photos?limit=7&offset=${offset}`);
      assert.equal(r.body.pagination.total, 25);
      assert.equal(r.body.pagination.limit, 7);
      assert.equal(r.body.pagination.offset, offset);
      assert.equal(r.body.pagination.has_more, offset + 7 < 25);
      seen.push(...r.body.photos.map((p: any) => p.id));
    }
    assert.equal(seen.length, 25);
    assert.equal(new Set(seen).size, 25, 'no photo appears on two pages');
    const times = (await guest.get('/api/photos?limit=100')).body.photos.map((p: any) => p.upload_timestamp);
    assert.deepEqual(times, [...times].sort().reverse());
  });

  test('limit is capped at 100 and defaults to 20', async () => {
    const rows = Array.from({ length: 105 }, (_, i) => i);
    for (const i of rows) await addPhoto(s, { visible: true, derivatives: false, uploadTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
    const capped = await guest.get('/api/photos?limit=1000');
    assert.equal(capped.status, 200);
    assert.equal(capped.body.photos.length, 100);
    assert.equal(capped.body.pagination.limit, 100);
    assert.equal(capped.body.pagination.has_more, true);
    const def = await guest.get('/api/photos?offset=100');
    assert.equal(def.body.pagination.limit, 20);
    assert.equal(def.body.photos.length, 5);
    assert.equal(def.body.pagination.has_more, false);
  });

  for (const q of ['limit=abc', 'limit=0', 'limit=-5', 'offset=-1', 'offset=1.5', 'limit=2e3']) {
    test(`bad paging (${q}) is a 400 with a readable error`, async () => {
      const r = await guest.get(`/api/photos?${q}`);
      assert.equal(r.status, 400);
      assert.equal(r.body.success, false);
      assert.match(r.body.error, /(limit|offset) must be/);
      assert.equal(r.body.code, 'invalid_input');
    });
  }
});

describe('GET /api/stats', () => {
  beforeEach(() => clearPhotos(s));

  test('counts every stored photo and names cameras without repeating the make', async () => {
    let bytes = 0;
    for (const f of CAMERAS) {
      await addPhoto(s, { file: sample(f), visible: f !== 'Pentax_K10D.jpg' });
      bytes += fs.statSync(sample(f)).size;
    }
    await addPhoto(s, { file: sample('Canon_40D.jpg'), visible: true });
    bytes += fs.statSync(sample('Canon_40D.jpg')).size;
    await addPhoto(s, { file: sample('xmp_no_exif.jpg'), visible: true, derivatives: false });
    bytes += fs.statSync(sample('xmp_no_exif.jpg')).size;
    await addPhoto(s, { file: testVideo(), visible: false, derivatives: false });
    bytes += fs.statSync(testVideo()).size;

    const r = await guest.get('/api/stats');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    const st = r.body.stats;
    assert.equal(st.total_photos, 8);
    assert.deepEqual(st.media_breakdown, { images: 7, videos: 1 });
    assert.equal(st.total_size_mb, Math.round((bytes / 1048576) * 100) / 100);
    assert.ok(st.total_size_mb > 0);
    // Cameras only over visible media: the hidden Pentax photo's EXIF text is not shown.
    assert.equal(st.unique_devices, 4);
    assert.deepEqual(st.cameras[0], { name: 'Canon EOS 40D', count: 2 });
    assert.deepEqual(
      st.cameras.map((c: any) => c.name).sort(),
      ['Canon EOS 40D', 'FUJIFILM FinePix E500', 'NIKON D70', 'Panasonic DMC-FZ30'].sort(),
    );
    assert.ok(st.cameras.every((c: any, i: number) => i === 0 || st.cameras[i - 1].count >= c.count), 'most used first');
  });

  test('an empty site has zero stats', async () => {
    const r = await guest.get('/api/stats');
    assert.deepEqual(r.body.stats, { total_photos: 0, total_size_mb: 0, media_breakdown: { images: 0, videos: 0 }, cameras: [], unique_devices: 0, challenges: [] });
  });
});

describe('GET /api/photos/:id/status', () => {
  test('a stored photo answers its processing status; an unknown id is a 404 with code not_found', async () => {
    const done = await addPhoto(s, { visible: false });
    const pending = await addPhoto(s, { visible: false, derivatives: false });
    assert.deepEqual((await guest.get(`/api/photos/${done}/status`)).body, { success: true, status: 'complete', duplicate_type: null });
    assert.deepEqual((await guest.get(`/api/photos/${pending}/status`)).body, { success: true, status: 'processing', duplicate_type: null });
    const missing = await guest.get('/api/photos/does-not-exist/status');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { success: false, error: 'No photo with this id.', code: 'not_found' });
  });
});
