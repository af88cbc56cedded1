// GET /api/photos keeps the plain gallery's answers serialized while nothing in them moved: each
// answer must still be the one the database and the settings give now - after a heart (also one
// written on another connection), an approval or hiding, a settings change - and a guest's own
// hearts are never in a stranger's answer nor missing from theirs.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 12, minute)).toISOString();

/** A guest without cookies: the answer every new phone gets. */
async function stranger(): Promise<{ etag: string; bytes: string; body: any }> {
  const res = await new TestClient(s.url).fetch('/api/photos');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  const bytes = await res.text();
  return { etag: res.headers.get('etag') ?? '', bytes, body: JSON.parse(bytes) };
}

test('the plain gallery answer follows every change, and is the same bytes and ETag while nothing changed', async () => {
  const older = await addPhoto(s, { visible: true, uploadTimestamp: at(1) });
  const newer = await addPhoto(s, { visible: true, uploadTimestamp: at(2) });
  s.writable().prepare('UPDATE photos SET uploader_name = ? WHERE id = ?').run('Oma Ruth', older);
  const first = await stranger();
  assert.deepEqual(first.body.photos.map((p: any) => p.id), [newer, older]);
  assert.ok(first.etag);
  const again = await stranger();
  assert.equal(again.bytes, first.bytes);
  assert.equal(again.etag, first.etag);
  // (node:http: fetch() adds "Cache-Control: no-cache" to a request with If-None-Match.)
  const revalidated = await new Promise<number>((resolve, reject) =>
    http.get(`${s.url}/api/photos`, { headers: { 'if-none-match': first.etag } }, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject),
  );
  assert.equal(revalidated, 304, 'a browser holding the answer is told it still holds');

  // A heart through the site.
  const anna = new TestClient(s.url);
  assert.equal((await anna.put(`/api/photos/${older}/heart`)).status, 200);
  const hearted = await stranger();
  assert.notEqual(hearted.etag, first.etag);
  assert.deepEqual(hearted.body.photos.map((p: any) => [p.hearts, p.hearted]), [[0, false], [1, false]]);
  // Anna's own answer marks her heart; a stranger's right after does not.
  assert.deepEqual((await anna.get('/api/photos')).body.photos.map((p: any) => p.hearted), [false, true]);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.hearted), [false, false]);

  // A heart count written on another connection (a trigger bumps the version there).
  s.writable().prepare('UPDATE photos SET hearts = 7 WHERE id = ?').run(newer);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.hearts), [7, 1]);

  // Hidden, then shown again by the couple.
  assert.equal((await admin.post(`/admin/api/photos/${newer}/toggle-visibility`)).status, 200);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.id), [older]);
  assert.equal((await admin.post(`/admin/api/photos/${newer}/toggle-visibility`)).status, 200);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.id), [newer, older]);

  // Settings changes: names hidden, then shown; the gallery closes until tomorrow, then opens again.
  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: false })).status, 200);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.uploader_name), [null, null]);
  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: true })).status, 200);
  assert.deepEqual((await stranger()).body.photos.map((p: any) => p.uploader_name), [null, 'Oma Ruth']);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: tomorrow })).status, 200);
  const closed = await stranger();
  assert.deepEqual(closed.body.photos, []);
  assert.equal(closed.body.opens_at, tomorrow);
  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: null })).status, 200);
  const open = await stranger();
  assert.equal(open.body.photos.length, 2);
  assert.equal(open.body.opens_at, undefined);

  // Every answer is the one the ordinary way gives (a filter-free query with an explicit sort takes it).
  const ordinary = await new TestClient(s.url).get('/api/photos?sort=newest&highlights=false');
  assert.deepEqual(open.body, ordinary.body);
});

test('a GET without the session cookie makes no session; an admin with one keeps it', async () => {
  const res = await new TestClient(s.url).fetch('/api/photos');
  assert.equal(res.headers.getSetCookie().some((c) => c.startsWith('wedding.sid=')), false);
  assert.equal((await new TestClient(s.url).get('/admin/api/me')).status, 401);
  const list = await admin.get('/admin/api/photos');
  assert.equal(list.status, 200, 'the admin, whose GETs carry the cookie, is still signed in');
});
