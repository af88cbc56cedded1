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
let admin: TestClient;
before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin());
  ben = new TestClient(s.url);
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const guestCookie = (c: TestClient) => c.cookieHeader().match(/wedding_guest=([^;]+)/)?.[1];

test('the first upload without the cookie sets wedding_guest: random, HttpOnly, SameSite=Lax, Path=/, 400 days', async () => {
  const r = await guestUpload(anna, await tinyImage('png', 1), 'first.png', '  Anna\u0007\n ');
  assert.equal(r.status, 201);
  const cookie = anna.lastSetCookie.find((c) => c.startsWith('wedding_guest='));
  assert.ok(cookie, 'the cookie is set');
  assert.match(cookie, /^wedding_guest=[A-Za-z0-9_-]{22};/);
  assert.match(cookie, /; HttpOnly/i);
  assert.match(cookie, /; SameSite=Lax/i);
  assert.match(cookie, /; Path=\//);
  assert.match(cookie, new RegExp(`; Max-Age=${400 * 24 * 3600}`));
  assert.doesNotMatch(cookie, /Secure/i, 'plain http: not Secure');
  const photo = row(r.body.photo_id);
  assert.equal(photo.guest_id, guestCookie(anna), 'the upload records its guest');
  assert.equal(photo.uploader_name, 'Anna', 'control characters and surrounding spaces are removed');

  // The cookie is kept: the next upload does not set a new one and counts as the same guest.
  const again = await guestUpload(anna, await tinyImage('png', 2), 'second.png', 'Anna');
  assert.equal(again.status, 201);
  assert.ok(!anna.lastSetCookie.some((c) => c.startsWith('wedding_guest=')));
  assert.equal(row(again.body.photo_id).guest_id, photo.guest_id);
});

test('a chunked upload records the guest and the name sent with its last chunk', async () => {
  const data = await tinyImage('jpeg', 3, 300, 200);
  const r = await guestChunked(ben, data, 'big.jpg', Math.ceil(data.length / 3), ['Someone else', undefined, 'Ben']);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const photo = row(r.body.photo_id);
  assert.equal(photo.uploader_name, 'Ben');
  assert.equal(photo.guest_id, guestCookie(ben));
  assert.notEqual(guestCookie(ben), guestCookie(anna));

  const anon = await guestChunked(ben, await tinyImage('jpeg', 4, 300, 200), 'anon.jpg', 1000, [' \t ']);
  assert.equal(anon.status, 201);
  assert.equal(row(anon.body.photo_id).uploader_name, null, 'empty means anonymous');
});

test('a name over 60 characters is 400 with a sentence, and nothing is stored', async () => {
  const count = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;
  const before = count();
  const long = 'A'.repeat(61);
  const single = await guestUpload(anna, await tinyImage('png', 5), 'long.png', long);
  assert.equal(single.status, 400);
  assert.equal(single.body.code, 'invalid_input');
  assert.equal(single.body.error, 'Your name can be at most 60 characters long.');
  const chunked = await guestChunked(anna, await tinyImage('jpeg', 6, 300, 200), 'long.jpg', 100_000, [long]);
  assert.equal(chunked.status, 400);
  assert.equal(chunked.body.error, 'Your name can be at most 60 characters long.');
  assert.equal(count(), before);
  const sixty = await guestUpload(anna, await tinyImage('png', 7), 'sixty.png', 'é'.repeat(60));
  assert.equal(sixty.status, 201, 'exactly 60 characters (not bytes) is fine');
  assert.equal(row(sixty.body.photo_id).uploader_name, 'é'.repeat(60));
});

test('GET /api/my/uploads lists only this guest\'s files, hidden ones included, newest first', async () => {
  const mine = await anna.get('/api/my/uploads');
  assert.equal(mine.status, 200);
  assert.deepEqual(
    mine.body.photos.map((p: any) => p.original_filename),
    ['sixty.png', 'second.png', 'first.png'],
  );
  const p = mine.body.photos[2];
  assert.deepEqual(Object.keys(p).sort(), ['content_type', 'id', 'is_visible', 'original_filename', 'status', 'thumbnail_url', 'upload_timestamp', 'uploader_name']);
  assert.equal(p.is_visible, false);
  assert.equal(p.uploader_name, 'Anna');
  assert.deepEqual(mine.body.pagination, { total: 3, limit: 20, offset: 0, has_more: false });

  const page = await anna.get('/api/my/uploads?limit=1&offset=1');
  assert.deepEqual(page.body.photos.map((x: any) => x.original_filename), ['second.png']);
  assert.deepEqual(page.body.pagination, { total: 3, limit: 1, offset: 1, has_more: true });
  assert.equal((await anna.get('/api/my/uploads?limit=1000')).body.pagination.limit, 100, 'limit is capped at 100');
  assert.equal((await anna.get('/api/my/uploads?limit=abc')).status, 400);

  const bens = await ben.get('/api/my/uploads');
  assert.deepEqual(bens.body.photos.map((x: any) => x.original_filename).sort(), ['anon.jpg', 'big.jpg']);

  const stranger = new TestClient(s.url);
  const none = await stranger.get('/api/my/uploads');
  assert.equal(none.status, 200);
  assert.deepEqual(none.body.photos, []);
  assert.ok(stranger.lastSetCookie.some((c) => c.startsWith('wedding_guest=')), 'a /api/my call sets the cookie too');
});

test('a hidden thumbnail serves to the guest who sent it, and is 404 to another guest and to no cookie', async () => {
  const mine = (await anna.get('/api/my/uploads')).body.photos[0];
  await processed(anna, mine.id);
  const listed = (await anna.get('/api/my/uploads')).body.photos[0];
  assert.ok(listed.thumbnail_url, 'the thumbnail is listed once it exists');
  const own = await anna.fetch(listed.thumbnail_url);
  assert.equal(own.status, 200);
  assert.match(own.headers.get('cache-control') ?? '', /private/);
  assert.ok((await own.arrayBuffer()).byteLength > 0);
  assert.equal((await ben.fetch(listed.thumbnail_url)).status, 404);
  assert.equal((await fetch(s.url + listed.thumbnail_url)).status, 404);
  assert.equal((await ben.fetch(`/media/${listed.id}/display`)).status, 404);
  // A made-up cookie value is nobody's.
  assert.equal((await fetch(s.url + listed.thumbnail_url, { headers: { cookie: 'wedding_guest=not-a-real-guest' } })).status, 404);
});

test("DELETE of another guest's photo or an unknown id is 404 and changes nothing", async () => {
  const target = (await anna.get('/api/my/uploads')).body.photos[0];
  const before = row(target.id);
  const files = [before.stored_path, before.thumb_path].filter(Boolean).map((p: string) => path.join(s.dataDir, p));
  const r = await ben.del(`/api/my/uploads/${target.id}`);
  assert.equal(r.status, 404);
  assert.equal(r.body.success, false);
  assert.equal(r.body.error, 'Photo not found.');
  assert.deepEqual(row(target.id), before);
  for (const f of files) assert.ok(fs.existsSync(f), f);
  assert.equal((await anna.del('/api/my/uploads/no-such-photo')).status, 404);
  assert.equal((await new TestClient(s.url).del(`/api/my/uploads/${target.id}`)).status, 404);
  assert.ok(row(target.id));
});

test('a guest deletes their own photo: row and every file gone, the wall told, the admin list without it', async () => {
  const target = (await anna.get('/api/my/uploads')).body.photos[0];
  await processed(anna, target.id);
  // Visible first, so the wall has it to drop.
  assert.equal((await admin.post(`/admin/api/photos/${target.id}/approve`)).status, 200);
  const stored = row(target.id);
  const files = [stored.stored_path, stored.thumb_path, stored.display_path].filter(Boolean).map((p: string) => path.join(s.dataDir, p));
  assert.ok(files.length >= 2);
  const events: any[] = [];
  const stop = s.services.bus.subscribe((ev) => events.push(ev));
  const r = await anna.del(`/api/my/uploads/${target.id}`);
  stop();
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { success: true });
  assert.equal(row(target.id), undefined);
  for (const f of files) assert.ok(!fs.existsSync(f), `${f} is removed`);
  assert.ok(!fs.existsSync(path.join(s.ctx.paths.derived, target.id)));
  assert.deepEqual(events.map((e) => [e.type, e.data]), [['photo-hidden', { id: target.id }]]);
  const list = await admin.get('/admin/api/photos?per_page=100');
  assert.ok(!list.body.photos.some((p: any) => p.id === target.id));
  assert.ok(!(await anna.get('/api/my/uploads')).body.photos.some((p: any) => p.id === target.id));
  assert.equal((await anna.del(`/api/my/uploads/${target.id}`)).status, 404, 'a second delete finds nothing');
});

test('a delete from another site is refused', async () => {
  const target = (await anna.get('/api/my/uploads')).body.photos[0];
  const r = await anna.json('DELETE', `/api/my/uploads/${target.id}`, undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  assert.equal(r.status, 403);
  assert.ok(row(target.id));
});
