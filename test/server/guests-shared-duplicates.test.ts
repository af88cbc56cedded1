// A duplicate answered to one guest is that guest's photo too: listed as theirs, and still stored
// when the guest who sent the bytes first takes their photo back.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage } from '../helpers/uploads.js';
import { guestChunked, guestUpload, processed } from './guests-helpers.js';

let s: TestServer;
let anna: TestClient;
let ben: TestClient;
let carla: TestClient;
before(async () => {
  ({ s, client: anna } = await serverWithAdmin());
  ben = new TestClient(s.url);
  carla = new TestClient(s.url);
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const guestCookie = (c: TestClient) => c.cookieHeader().match(/wedding_guest=([^;]+)/)?.[1];
const mine = async (c: TestClient) => {
  const r = await c.get('/api/my/uploads');
  assert.equal(r.status, 200);
  return r.body as { photos: any[]; pagination: { total: number } };
};

test("a duplicate answered to Ben is Ben's too, and Anna taking her photo back leaves it stored as Ben's", async () => {
  const bytes = await tinyImage('jpeg', 501, 200, 150);
  const first = await guestUpload(anna, bytes, 'anna.jpg', 'Anna');
  assert.equal(first.status, 201);
  const id = first.body.photo_id;
  await processed(anna, id);
  const again = await guestUpload(ben, bytes, 'ben.jpg', 'Ben');
  assert.equal(again.status, 200);
  assert.equal(again.body.duplicate, true);
  assert.equal(again.body.photo_id, id);

  // Ben's list shows the photo he was told is stored, with his own name, and its thumbnail serves to him while hidden.
  const bens = await mine(ben);
  assert.deepEqual(bens.photos.map((p) => p.id), [id]);
  assert.equal(bens.pagination.total, 1);
  assert.equal(bens.photos[0].uploader_name, 'Ben');
  assert.equal(row(id).is_visible, 0);
  assert.equal((await ben.fetch(bens.photos[0].thumbnail_url)).status, 200, "Ben's hidden photo's thumbnail serves to Ben");
  assert.equal((await carla.fetch(bens.photos[0].thumbnail_url)).status, 404, 'and to nobody else');
  assert.deepEqual((await mine(anna)).photos.map((p) => p.id), [id], "it is still Anna's");

  // Anna takes it back: gone from her list, still stored, now Ben's.
  const del = await anna.del(`/api/my/uploads/${id}`);
  assert.equal(del.status, 200);
  assert.deepEqual(del.body, { success: true });
  assert.equal((await mine(anna)).photos.length, 0);
  const kept = row(id);
  assert.ok(kept, 'the photo Ben was told is stored is still there');
  assert.equal(kept.guest_id, guestCookie(ben));
  assert.equal(kept.uploader_name, 'Ben');
  assert.ok(fs.existsSync(path.join(s.dataDir, kept.stored_path)), 'its original stays');
  assert.ok(fs.existsSync(path.join(s.dataDir, kept.thumb_path)), 'its thumbnail stays');
  assert.deepEqual((await mine(ben)).photos.map((p) => p.id), [id]);
  assert.equal((await mine(ben)).pagination.total, 1, 'listed once');
  assert.equal((await anna.del(`/api/my/uploads/${id}`)).status, 404, 'Anna cannot take it again');

  // Ben takes it back: now nobody else owns it, and it is gone with its files.
  assert.equal((await ben.del(`/api/my/uploads/${id}`)).status, 200);
  assert.equal(row(id), undefined);
  assert.equal(fs.existsSync(path.join(s.dataDir, kept.stored_path)), false);
});

test('a co-owner taking a duplicate back leaves the photo to its sender; a chunked duplicate counts too', async () => {
  const bytes = await tinyImage('jpeg', 502, 300, 200);
  const first = await guestUpload(anna, bytes, 'anna2.jpg', 'Anna');
  assert.equal(first.status, 201);
  const id = first.body.photo_id;
  const dup = await guestChunked(carla, bytes, 'carla.jpg', Math.ceil(bytes.length / 2), [undefined, 'Carla']);
  assert.equal(dup.status, 200, JSON.stringify(dup.body));
  assert.equal(dup.body.photo_id, id);
  assert.deepEqual((await mine(carla)).photos.map((p) => p.id), [id]);
  // Anna's own second upload of her bytes adds nothing.
  assert.equal((await guestUpload(anna, bytes, 'anna2-again.jpg', 'Anna')).status, 200);
  assert.equal((await mine(anna)).photos.filter((p) => p.id === id).length, 1);

  assert.equal((await carla.del(`/api/my/uploads/${id}`)).status, 200);
  assert.equal((await mine(carla)).photos.length, 0);
  const still = row(id);
  assert.ok(still, "Anna's photo stays");
  assert.equal(still.guest_id, guestCookie(anna));
  assert.equal(still.uploader_name, 'Anna');
  assert.equal((await carla.del(`/api/my/uploads/${id}`)).status, 404);
  assert.equal((await anna.del(`/api/my/uploads/${id}`)).status, 200);
  assert.equal(row(id), undefined, 'with nobody else owning it, it goes');
});
