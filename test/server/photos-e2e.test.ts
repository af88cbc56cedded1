// From a guest's upload to the gallery, the wall and the dashboard, through the real upload and
// processing code (sharp, exifr, ffmpeg) on real camera files.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { makeVideo, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;
let guest: TestClient;
before(async () => ({ s, admin, client: guest } = await serverWithAdmin()));
after(() => s.close());

const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function uploaded(file: string | Buffer, name: string): Promise<string> {
  const r = await uploadFile(s.url, file, name, 'e2e-session');
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await waitForStatus(s.url, r.body.photo_id);
  return r.body.photo_id;
}

test('an uploaded photo is hidden until approved, then listed with working GPS-free media', async () => {
  const storageBefore = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
  const id = await uploaded(sample('gps_DSCN0010.jpg'), 'gps_DSCN0010.jpg');
  assert.equal((await guest.get('/api/photos')).body.pagination.total, 0, 'new uploads are hidden');
  const queue = await admin.get('/admin/api/photos?show_all=false&pending=true&per_page=50');
  const pending = queue.body.photos.find((p: any) => p.id === id);
  assert.equal(pending.status, 'complete');
  assert.equal(pending.camera_make, 'NIKON');
  assert.ok(pending.thumbnail_url, 'admins see the thumbnail of a hidden photo');
  assert.equal((await admin.fetch(pending.thumbnail_url)).status, 200);
  assert.equal((await guest.fetch(pending.thumbnail_url)).status, 404);
  const dash = (await admin.get('/admin/api/dashboard')).body;
  assert.ok(dash.stats.storage_used >= storageBefore + fs.statSync(sample('gps_DSCN0010.jpg')).size, 'the upload counts in storage_used');
  assert.equal(dash.recent_activity.find((a: any) => a.type === 'upload')?.description, 'New photo uploaded: gps_DSCN0010.jpg');

  const family = await userClient(s.url, admin, 'family');
  assert.equal((await family.post(`/admin/api/photos/${id}/approve`)).status, 200);
  const list = await guest.get('/api/photos');
  assert.equal(list.body.pagination.total, 1);
  const item = list.body.photos[0];
  assert.equal(item.id, id);
  assert.equal(item.camera_model, 'COOLPIX P6000');
  assert.match(item.date_taken, /^2008-10-22T/);
  assert.equal(item.width, 640);
  assert.equal(item.height, 480);
  const thumb = await guest.fetch(item.thumbnail_url);
  assert.equal(thumb.status, 200);
  assert.equal(thumb.headers.get('content-type'), 'image/webp');
  assert.match(thumb.headers.get('cache-control')!, /immutable/);
  const display = await bytesOf(await guest.fetch(item.backblaze_url));
  const meta = await sharp(display).metadata();
  assert.equal(meta.format, 'webp');
  assert.equal((await exifr.gps(display).catch(() => undefined))?.latitude, undefined, 'no GPS in what guests get');

  const wall = (await s.services.bus.since(0)).filter((e) => e.type === 'photo-visible');
  assert.deepEqual(wall.at(-1)!.data, item, 'the wall receives the same gallery item');

  const link = (await family.get(`/admin/api/photos/${id}/download`)).body.download_url;
  const original = await bytesOf(await family.fetch(link));
  assert.equal(sha(original), sha(fs.readFileSync(sample('gps_DSCN0010.jpg'))), 'the download is the original, GPS and all');

  const stats = (await guest.get('/api/stats')).body.stats;
  assert.deepEqual(stats.cameras, [{ name: 'NIKON COOLPIX P6000', count: 1 }]);
});

test('rotating gives new derivatives under a new URL with width and height swapped', async () => {
  const id = await uploaded(sample('Canon_40D.jpg'), 'Canon_40D.jpg');
  const bride = await userClient(s.url, admin, 'bride');
  const before = (await bride.post(`/admin/api/photos/${id}/approve`)).body.photo;
  const r = await bride.post(`/admin/api/photos/${id}/rotate`, { degrees: 90 });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.success, true);
  assert.equal(r.body.photo.width, before.height);
  assert.equal(r.body.photo.height, before.width);
  assert.notEqual(r.body.photo.thumbnail_url, before.thumbnail_url, 'a rebuilt thumbnail gets a new URL');
  const thumb = await sharp(await bytesOf(await guest.fetch(r.body.photo.thumbnail_url))).metadata();
  assert.ok(thumb.height! > thumb.width!, 'the landscape photo now stands upright');
  const regen = await bride.post(`/admin/api/photos/${id}/regenerate-thumbnail`);
  assert.equal(regen.body.success, true);
  assert.notEqual(regen.body.photo.thumbnail_url, r.body.photo.thumbnail_url);
  assert.equal((await guest.fetch(regen.body.photo.thumbnail_url)).status, 200);
});

test('a damaged file ends in error, stays listed for admins, and regenerating it answers success false', async () => {
  const r = await uploadFile(s.url, sample('corrupted.jpg'), 'corrupted.jpg', 'e2e-session');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'error');
  const listed = (await admin.get('/admin/api/photos?per_page=100')).body.photos.find((p: any) => p.id === r.body.photo_id);
  assert.equal(listed.status, 'error');
  assert.equal(listed.thumbnail_url, null);
  const regen = await admin.post(`/admin/api/photos/${r.body.photo_id}/regenerate-thumbnail`);
  assert.equal(regen.status, 422);
  assert.equal(regen.body.success, false);
  assert.equal(regen.body.code, 'unprocessable');
  assert.equal(typeof regen.body.error, 'string');
  assert.ok(regen.body.error.length > 5);
  const all = await admin.post('/admin/api/photos/regenerate-all-thumbnails');
  assert.equal(all.body.success, true);
  const total = (await admin.get('/admin/api/dashboard')).body.stats.total_photos;
  assert.equal(all.body.statistics.processed, total);
  assert.ok(all.body.statistics.failed >= 1);
  assert.equal(all.body.statistics.succeeded + all.body.statistics.failed, total);
});

test('an uploaded video plays from its display copy with Range, and deleting it frees the space', async () => {
  const id = await uploaded(makeVideo('mp4'), 'first-dance.mp4');
  await admin.post(`/admin/api/photos/${id}/approve`);
  const item = (await guest.get('/api/photos')).body.photos.find((p: any) => p.id === id);
  assert.equal(item.content_type, 'video/mp4');
  assert.equal((await guest.fetch(item.thumbnail_url)).headers.get('content-type'), 'image/webp');
  const part = await guest.fetch(item.backblaze_url, { headers: { range: 'bytes=0-99' } });
  assert.equal(part.status, 206);
  assert.match(part.headers.get('content-type')!, /^video\//);
  assert.equal((await bytesOf(part)).length, 100);
  assert.equal((await admin.post(`/admin/api/photos/${id}/rotate`, { degrees: 90 })).status, 400);

  const used = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
  const row = s.ctx.sqlite.prepare('SELECT file_size FROM photos WHERE id = ?').get(id) as { file_size: number };
  assert.equal((await admin.del(`/admin/api/photos/${id}/delete`)).status, 200);
  const after = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
  assert.ok(used - after > row.file_size, `the original and its derivatives are freed (${used - after} bytes)`);
  assert.equal((await guest.fetch(item.backblaze_url)).status, 404);
  assert.equal(fs.existsSync(`${s.ctx.paths.derived}/${id}`), false);
});
