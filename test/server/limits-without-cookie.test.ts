// The per-guest limits hold for requests without a guest cookie too: per address then.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ENTRIES_PER_HOUR } from '../../server/guestbook/guestbook.service.js';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;
before(async () => {
  ({ s, admin } = await serverWithAdmin({ TRUST_PROXY: 'true' }));
});
after(() => s.close());

/** A request as a script that never keeps cookies sends it, from `address`. */
const cookieless = (path: string, address: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': address } });

const hearts = (id: string) => (s.ctx.sqlite.prepare('SELECT hearts FROM photos WHERE id = ?').get(id) as { hearts: number }).hearts;

test('hearts without a cookie: one per photo and address', async () => {
  const up = await uploadFile(s.url, await tinyImage('jpeg', 1101), 'heart.jpg');
  assert.equal((await admin.post(`/admin/api/photos/${up.body.photo_id}/approve`)).status, 200);
  const id = up.body.photo_id;
  for (let i = 0; i < 5; i++) {
    const r = await cookieless(`/api/photos/${id}/heart`, '203.0.113.20', { method: 'PUT' });
    assert.equal(r.status, 200);
    assert.equal((await r.json()).hearts, 1);
  }
  assert.equal(hearts(id), 1, 'five tries from one address are one heart');
  const other = await cookieless(`/api/photos/${id}/heart`, '203.0.113.21', { method: 'PUT' });
  assert.equal((await other.json()).hearts, 2, 'another address is another heart');
  // A guest with a cookie counts on their own, wherever they are.
  const guest = new TestClient(s.url);
  assert.equal((await guest.fetch(`/api/photos/${id}/heart`, { method: 'PUT', headers: { 'x-forwarded-for': '203.0.113.20' } })).status, 200);
  assert.equal((await guest.fetch(`/api/photos/${id}/heart`, { method: 'PUT', headers: { 'x-forwarded-for': '203.0.113.20' } })).status, 200);
  assert.equal(hearts(id), 3);
  // Without a cookie nobody's heart can be taken back (each such request is a new guest with none),
  // so taking back and giving again cannot add up either.
  for (let i = 0; i < 3; i++) {
    assert.equal((await cookieless(`/api/photos/${id}/heart`, '203.0.113.20', { method: 'DELETE' })).status, 200);
    assert.equal((await cookieless(`/api/photos/${id}/heart`, '203.0.113.20', { method: 'PUT' })).status, 200);
  }
  assert.equal(hearts(id), 3);
  // The browser whose first heart came without a cookie got one with it, and takes its heart back with it.
  const first = new TestClient(s.url);
  const photo2 = await uploadFile(s.url, await tinyImage('jpeg', 1102), 'heart2.jpg');
  assert.equal((await admin.post(`/admin/api/photos/${photo2.body.photo_id}/approve`)).status, 200);
  assert.equal((await first.put(`/api/photos/${photo2.body.photo_id}/heart`)).body.hearts, 1);
  assert.equal((await first.put(`/api/photos/${photo2.body.photo_id}/heart`)).body.hearts, 1);
  assert.equal((await first.del(`/api/photos/${photo2.body.photo_id}/heart`)).body.hearts, 0);
});

test('a guest page gives the browser its guest cookie, so its first heart is its own', async () => {
  const page = await fetch(`${s.url}/gallery`);
  await page.text();
  assert.match(page.headers.getSetCookie().join(';'), /wedding_guest=[A-Za-z0-9_-]{22}/);
  const wall = await fetch(`${s.url}/wall`);
  await wall.text();
  assert.doesNotMatch(wall.headers.getSetCookie().join(';'), /wedding_guest=/, 'the wall is no guest');
});

test('guestbook without a cookie: at most 10 messages an hour per address, then 429 with Retry-After', async () => {
  const post = (address: string, message: string) => {
    const form = new FormData();
    form.append('message', message);
    return cookieless('/api/guestbook', address, { method: 'POST', body: form });
  };
  for (let i = 0; i < ENTRIES_PER_HOUR; i++) assert.equal((await post('203.0.113.30', `hello ${i}`)).status, 201);
  const refused = await post('203.0.113.30', 'one too many');
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) > 0);
  const count = (s.ctx.sqlite.prepare(`SELECT count(*) n FROM guestbook WHERE message LIKE 'hello %' OR message = 'one too many'`).get() as { n: number }).n;
  assert.equal(count, ENTRIES_PER_HOUR, 'the 11th is not stored');
  assert.equal((await post('203.0.113.31', 'from elsewhere')).status, 201, 'another address is not held back');
  // A guest with a cookie (the guestbook page asks for its own messages first, which gives it one)
  // is counted by their cookie, not by the address they share.
  const guest = new TestClient(s.url);
  assert.equal((await guest.get('/api/my/guestbook')).status, 200);
  const form = new FormData();
  form.append('message', 'from a browser');
  assert.equal((await guest.fetch('/api/guestbook', { method: 'POST', body: form, headers: { 'x-forwarded-for': '203.0.113.30' } })).status, 201);
});
