import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import exifr from 'exifr';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { addPhoto, testVideo } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
let guest: TestClient;
let family: TestClient;
before(async () => {
  ({ s, admin, client: guest } = await serverWithAdmin());
  family = await userClient(s.url, admin, 'family');
});
after(() => s.close());

const sha = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');
/**
 * A bare GET: fetch() adds "Cache-Control: no-cache" to any request carrying If-None-Match,
 * which (rightly) forces a full answer; a browser revalidating its cache sends no such header.
 */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('derivative media routes', () => {
  test('a hidden photo\'s thumbnail and display are 404 for guests and 200 for any signed-in user', async () => {
    const id = await addPhoto(s, { visible: false });
    for (const kind of ['thumb', 'display']) {
      const g = await guest.fetch(`/media/${id}/${kind}?v=1`);
      assert.equal(g.status, 404);
      assert.equal(g.headers.get('cache-control'), 'no-store');
      assert.equal((await g.json()).success, false);
      for (const c of [admin, family]) {
        const a = await c.fetch(`/media/${id}/${kind}?v=1`);
        assert.equal(a.status, 200);
        assert.equal(a.headers.get('content-type'), 'image/webp');
        assert.match(a.headers.get('cache-control')!, /^private/, 'a hidden photo is never put in a shared cache');
        assert.ok((await bytesOf(a)).length > 100);
      }
    }
    // Approving makes the same URL public.
    await admin.post(`/admin/api/photos/${id}/approve`);
    assert.equal((await guest.fetch(`/media/${id}/thumb?v=1`)).status, 200);
  });

  test('unknown ids and media not generated yet are 404 JSON', async () => {
    for (const p of ['/media/does-not-exist/thumb?v=1', '/media/does-not-exist/poster', '/media']) {
      const unknown = await guest.fetch(p);
      assert.equal(unknown.status, 404, p);
      assert.match(unknown.headers.get('content-type')!, /application\/json/, p);
      assert.deepEqual(await unknown.json(), { success: false, error: 'Media not found.', code: 'not_found' }, p);
    }
    const pending = await addPhoto(s, { visible: true, derivatives: false });
    for (const kind of ['thumb', 'display']) {
      const r = await admin.fetch(`/media/${pending}/${kind}`);
      assert.equal(r.status, 404);
      assert.match((await r.json()).error, /not been generated/);
    }
    // The derivative row points at a file that went missing: still a 404, not a crash.
    const id = await addPhoto(s, { visible: true });
    fs.rmSync(`${s.ctx.paths.derived}/${id}/thumb-v1.webp`);
    assert.equal((await guest.fetch(`/media/${id}/thumb?v=1`)).status, 404);
  });

  test('versioned derivatives are cached for a year, immutable, with an ETag that answers 304', async () => {
    const id = await addPhoto(s, { visible: true });
    const r = await guest.fetch(`/media/${id}/thumb?v=1`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'private, max-age=31536000, immutable', 'a browser keeps it; no shared cache may');
    const etag = r.headers.get('etag');
    assert.ok(etag);
    assert.equal(Number(r.headers.get('content-length')), fs.statSync(`${s.ctx.paths.derived}/${id}/thumb-v1.webp`).size);
    const again = await rawGet(`${s.url}/media/${id}/thumb?v=1`, { 'if-none-match': etag! });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    const changed = await rawGet(`${s.url}/media/${id}/thumb?v=1`, { 'if-none-match': 'W/"other"' });
    assert.equal(changed.status, 200);
    // A stale or missing version must be revalidated, not cached forever.
    const stale = await guest.fetch(`/media/${id}/thumb?v=0`);
    assert.equal(stale.headers.get('cache-control'), 'private, no-cache');
  });

  test('the public display image carries no GPS location while the original does', async () => {
    const id = await addPhoto(s, { visible: true, file: sample('gps_DSCN0010.jpg') });
    assert.ok((await exifr.gps(sample('gps_DSCN0010.jpg')))?.latitude, 'the sample has GPS');
    const display = await bytesOf(await guest.fetch(`/media/${id}/display?v=1`));
    const gps = await exifr.gps(display).catch(() => undefined);
    assert.equal(gps?.latitude, undefined);
    assert.equal((await guest.fetch(`/media/${id}/original`)).status, 401, 'originals are never public');
  });

  test('a video display file answers Range requests with 206', async () => {
    const id = await addPhoto(s, { visible: true, file: testVideo() });
    const full = await guest.fetch(`/media/${id}/display?v=1`);
    assert.equal(full.status, 200);
    assert.equal(full.headers.get('content-type'), 'video/mp4');
    assert.equal(full.headers.get('accept-ranges'), 'bytes');
    const whole = await bytesOf(full);
    const part = await guest.fetch(`/media/${id}/display?v=1`, { headers: { range: 'bytes=100-1099' } });
    assert.equal(part.status, 206);
    assert.equal(part.headers.get('content-range'), `bytes 100-1099/${whole.length}`);
    assert.deepEqual(await bytesOf(part), whole.subarray(100, 1100));
    const bad = await guest.fetch(`/media/${id}/display?v=1`, { headers: { range: `bytes=${whole.length + 10}-` } });
    assert.equal(bad.status, 416);
    assert.equal((await bad.json()).code, 'range_not_satisfiable');
    const poster = await guest.fetch(`/media/${id}/thumb?v=1`);
    assert.equal(poster.headers.get('content-type'), 'image/webp');
  });
});

describe('original download links', () => {
  test('serve the original bytes as an attachment under the original name, with Range', async () => {
    const id = await addPhoto(s, { visible: false, file: sample('gps_DSCN0010.jpg'), originalFilename: 'Hochzeit Tanz é.jpg' });
    const r = await family.get(`/admin/api/photos/${id}/download`);
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.match(r.body.download_url, new RegExp(`^/media/${id}/original\\?token=[A-Za-z0-9_-]{40,}$`));
    const dl = await family.fetch(r.body.download_url);
    assert.equal(dl.status, 200);
    assert.equal(dl.headers.get('content-type'), 'image/jpeg');
    const cd = dl.headers.get('content-disposition')!;
    assert.match(cd, /^attachment;/);
    assert.match(cd, /filename\*=UTF-8''Hochzeit%20Tanz%20%C3%A9\.jpg/);
    const original = fs.readFileSync(sample('gps_DSCN0010.jpg'));
    assert.equal(Number(dl.headers.get('content-length')), original.length);
    assert.equal(sha(await bytesOf(dl)), sha(original), 'byte for byte, GPS included');
    const part = await family.fetch(r.body.download_url, { headers: { range: 'bytes=0-9' } });
    assert.equal(part.status, 206);
    assert.deepEqual(await bytesOf(part), original.subarray(0, 10));
  });

  test('a link does not work for another admin, a guest, another photo, or after it expires', async () => {
    const id = await addPhoto(s, { visible: true });
    const other = await addPhoto(s, { visible: true });
    const { body } = await family.get(`/admin/api/photos/${id}/download`);
    const wrongUser = await admin.fetch(body.download_url);
    assert.equal(wrongUser.status, 403);
    assert.deepEqual(await wrongUser.json(), { success: false, error: 'This download link belongs to another account.', code: 'forbidden' });
    const noSession = await guest.fetch(body.download_url);
    assert.equal(noSession.status, 401);
    assert.equal((await noSession.json()).code, 'not_signed_in');
    assert.equal((await family.fetch(body.download_url.replace(id, other))).status, 404);
    assert.equal((await family.fetch(`/media/${id}/original?token=guess`)).status, 404);
    assert.equal((await family.fetch(body.download_url)).status, 200);
    const realNow = Date.now;
    Date.now = () => realNow() + 5 * 60_000 + 1000;
    try {
      const late = await family.fetch(body.download_url);
      assert.equal(late.status, 404);
      const lateBody = await late.json();
      assert.match(lateBody.error, /expired/);
      assert.equal(lateBody.code, 'not_found');
    } finally {
      Date.now = realNow;
    }
  });

  test('asking for a link needs a session and a known photo', async () => {
    const id = await addPhoto(s, { visible: true });
    assert.equal((await guest.get(`/admin/api/photos/${id}/download`)).status, 401);
    const missing = await admin.get('/admin/api/photos/nope/download');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { success: false, error: 'Photo not found.', code: 'not_found' });
  });
});
