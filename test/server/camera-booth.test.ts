import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminClient, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage } from '../helpers/uploads.js';

// The photo booth: opened once by a signed-in user on a tablet, then used without an account.
let s: TestServer;
let clock = Date.now();
let admin: TestClient;
let boothCookie = '';
let boothId = '';
before(async () => {
  s = await startTestServer({}, undefined, { boothNow: () => clock });
  admin = await adminClient(s.url);
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const count = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;

/** A booth picture from a browser holding `cookie` (and nothing else). */
async function boothUpload(cookie: string, data: Buffer, extra: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(data)]), 'booth.jpg');
  const res = await fetch(s.url + '/api/booth/upload', { method: 'POST', body: form, headers: cookie ? { cookie } : {} });
  return { status: res.status, body: await res.json() };
}

test('no booth without a signed-in opening: a guest cannot open one, and uploads without its token are 403 with nothing stored', async () => {
  const guest = new TestClient(s.url);
  const r = await guest.post('/admin/api/booth');
  assert.equal(r.status, 401);
  assert.equal((await guest.get('/api/booth')).body.booth, false);
  const before = count();
  const up = await boothUpload('wedding_booth=' + 'A'.repeat(32), await tinyImage('jpeg', 1, 800, 600));
  assert.equal(up.status, 403);
  assert.equal(up.body.code, 'forbidden');
  assert.equal(up.body.error, 'This browser is not a photo booth: someone signed in opens it once on the tablet at /booth.');
  assert.equal(count(), before);
});

test('a signed-in user opens the booth: the tablet keeps a token (HttpOnly cookie, about 400 days); the dashboard lists the booth', async () => {
  const r = await admin.post('/admin/api/booth');
  assert.equal(r.status, 201);
  boothId = r.body.booth.id;
  const cookie = admin.lastSetCookie.find((c) => c.startsWith('wedding_booth='))!;
  assert.match(cookie, /^wedding_booth=[A-Za-z0-9_-]{32};/);
  assert.match(cookie, /HttpOnly/i);
  boothCookie = cookie.split(';')[0];
  const list = await admin.get('/admin/api/booths');
  assert.deepEqual(list.body.booths.map((b: any) => [b.id, b.revoked]), [[boothId, false]]);
  assert.ok(list.body.booths[0].created_by_name, 'who opened it');
});

test('the booth works without the admin session: its picture is stored hidden under "Photo booth", and its QR address opens that picture only, for 7 days', async () => {
  assert.equal((await admin.post('/admin/api/logout')).status, 200);
  assert.equal((await admin.get('/admin/api/booths')).status, 401, 'the session is gone');
  const status = await fetch(s.url + '/api/booth', { headers: { cookie: boothCookie } });
  assert.equal((await status.json()).booth, true);

  const strip = await tinyImage('jpeg', 2, 1200, 1800);
  const up = await boothUpload(boothCookie, strip, { uploader_name: 'Someone Else' });
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const photo = row(up.body.photo_id);
  assert.equal(photo.uploader_name, 'Photo booth');
  assert.equal(photo.guest_id, null);
  assert.equal(photo.is_visible, 0, 'waits for approval like every upload');
  assert.match(up.body.share_url, /^\/b\/[A-Za-z0-9_-]{32}$/);

  const shared = await fetch(s.url + up.body.share_url);
  assert.equal(shared.status, 200, 'before approval too');
  assert.equal(shared.headers.get('content-type'), 'image/jpeg');
  assert.deepEqual(Buffer.from(await shared.arrayBuffer()), strip);
  // Nothing else through it: another token, a photo id, a path below it.
  assert.equal((await fetch(s.url + '/b/' + 'B'.repeat(32))).status, 404);
  assert.equal((await fetch(s.url + '/b/' + up.body.photo_id)).status, 404);
  assert.equal((await fetch(`${s.url}/api/photos/${up.body.photo_id}/status`)).status, 200);
  const gallery = await (await fetch(s.url + '/api/photos')).json();
  assert.equal(gallery.photos.length, 0, 'the gallery does not show it before approval');

  // Six days later it still opens; after seven it does not.
  clock += 6 * 86_400_000;
  assert.equal((await fetch(s.url + up.body.share_url)).status, 200);
  clock += 1 * 86_400_000 + 1000;
  assert.equal((await fetch(s.url + up.body.share_url)).status, 404);
});

test('a revoked booth can no longer upload', async () => {
  await admin.login();
  assert.equal((await admin.del(`/admin/api/booths/${boothId}`)).status, 200);
  assert.equal((await admin.get('/admin/api/booths')).body.booths[0].revoked, true);
  const up = await boothUpload(boothCookie, await tinyImage('jpeg', 3, 800, 600));
  assert.equal(up.status, 403);
  assert.equal((await admin.del(`/admin/api/booths/${boothId}`)).status, 404, 'already revoked');
});
