// Media served from the couple's bucket (S3_SERVE=true) against a real S3-compatible server on
// loopback (s3rver, which rejects an expired signed URL): a visible photo's copied derivatives are
// signed bucket URLs that fetch the same bytes with a type a browser shows; a hidden photo's never
// are; originals stay on the site; a URL is reused for hours and renewed before it could expire,
// also in an answer a browser revalidates; a failing bucket sends guests back to the site;
// S3_PUBLIC_URL gives the base plus the key.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { MediaServing } from '../../server/offsite/serving.js';
import { BUCKET, startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { adminClient, startTestServer, tempDir, TestClient, type TestServer } from '../helpers/server.js';
import { makeVideo, sha256, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

const HOUR = 60 * 60 * 1000;
let bucket: TestBucket;
let s: TestServer;
let admin: TestClient;
let guest: TestClient;
/** The signing clock: real time plus what the test moved it by. */
let shift = 0;
const now = () => Date.now() + shift;
const ids = { photo: '', video: '', hidden: '' };
const sent = new Map<string, Buffer>();

async function row(id: string) {
  return s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function upload(data: Buffer, name: string): Promise<string> {
  const r = await uploadFile(s.url, data, name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(await waitForStatus(s.url, r.body.photo_id, 120_000), 'complete');
  sent.set(r.body.photo_id, data);
  return r.body.photo_id;
}

async function gallery(): Promise<Map<string, any>> {
  const r = await guest.get('/api/photos?limit=100');
  assert.equal(r.status, 200);
  return new Map(r.body.photos.map((p: any) => [p.id, p]));
}

async function adminPhotos(): Promise<Map<string, any>> {
  const r = await admin.get('/admin/api/photos?per_page=100');
  assert.equal(r.status, 200);
  return new Map(r.body.photos.map((p: any) => [p.id, p]));
}

const fromBucket = (url: string | null) => !!url && url.startsWith(bucket.endpoint + '/');

/** A signed GET for the object `our-wedding/<rel>` with at least an hour left at the signing clock's now. */
function assertSigned(url: string, rel: string): URL {
  const u = new URL(url);
  assert.equal(u.origin, bucket.endpoint, url);
  assert.equal(decodeURIComponent(u.pathname), `/${BUCKET}/our-wedding/${rel}`);
  assert.ok(u.searchParams.get('X-Amz-Signature'), 'signed by the S3 client');
  assert.ok(leftMs(u) >= HOUR, `${leftMs(u) / HOUR} h left`);
  return u;
}

/** How long a signed URL stays good from the signing clock's now. */
function leftMs(u: URL): number {
  const d = u.searchParams.get('X-Amz-Date')!;
  const signedAt = Date.parse(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6, 11)}:${d.slice(11, 13)}:${d.slice(13, 15)}Z`);
  return signedAt + Number(u.searchParams.get('X-Amz-Expires')) * 1000 - now();
}

/** Fetches from the bucket (no cookies: a guest's browser asking another origin). */
async function fetchFromBucket(url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const r = await fetch(url);
  return { status: r.status, type: r.headers.get('content-type'), body: Buffer.from(await r.arrayBuffer()) };
}

/**
 * A browser's revalidation of a cached answer (If-None-Match). Not fetch(): it adds
 * Cache-Control: no-cache to a conditional request, which no server answers with a 304.
 */
function revalidate(p: string, etag: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(s.url + p, { headers: { 'if-none-match': etag, cookie: guest.cookieHeader() } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

/** Polls the gallery until the photo's two URLs come from the bucket. */
async function untilServed(id: string): Promise<any> {
  let item: any;
  await until(async () => {
    item = (await gallery()).get(id);
    return fromBucket(item?.thumbnail_url) && fromBucket(item?.backblaze_url);
  }, `${id} served from the bucket`, 30_000);
  return item;
}

before(async () => {
  bucket = await startBucket({ prefix: 'our-wedding' });
  s = await startTestServer({ ...bucket.env, S3_SERVE: 'true' }, tempDir(), { offsitePollMs: 100, offsiteMaxBackoffMs: 1000, offsiteUrls: { now } });
  admin = await adminClient(s.url);
  guest = new TestClient(s.url);
  ids.photo = await upload(await tinyImage('jpeg', 11, 640, 480), 'first-dance.jpg');
  ids.hidden = await upload(await tinyImage('jpeg', 12, 640, 480), 'blurry.jpg');
  ids.video = await upload(makeVideo('mp4'), 'toast.mp4');
  for (const id of [ids.photo, ids.video]) assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
});
after(async () => {
  await s?.close();
  await bucket?.close();
});

test('a visible photo copied to the bucket is served from it: signed URLs with an hour left, the same bytes, a type the browser shows', async () => {
  const item = await untilServed(ids.photo);
  const r = await row(ids.photo);
  for (const [url, rel] of [
    [item.thumbnail_url, r.thumb_path!],
    [item.backblaze_url, r.display_path!],
  ] as const) {
    assertSigned(url, rel);
    const got = await fetchFromBucket(url);
    assert.equal(got.status, 200, url);
    assert.equal(got.type, 'image/webp');
    assert.deepEqual(got.body, fs.readFileSync(path.join(s.dataDir, rel)), `${rel}: the bucket's bytes are the site's`);
  }

  // A video: its poster and its web copy.
  const video = await untilServed(ids.video);
  const v = await row(ids.video);
  assertSigned(video.thumbnail_url, v.thumb_path!);
  assertSigned(video.backblaze_url, v.display_path!);
  const web = await fetchFromBucket(video.backblaze_url);
  assert.equal(web.status, 200);
  assert.equal(web.type, 'video/mp4');
  assert.deepEqual(web.body, fs.readFileSync(path.join(s.dataDir, v.display_path!)));

  // The admin pages' cards load from the bucket too.
  const card = (await adminPhotos()).get(ids.photo);
  assertSigned(card.thumbnail_url, r.thumb_path!);
  assertSigned(card.display_url, r.display_path!);
});

test('a hidden photo never gets a bucket URL, though the bucket holds its files', async () => {
  const r = await row(ids.hidden);
  await until(async () => (await bucket.keys('our-wedding/media/derived/' + ids.hidden + '/')).length >= 2, 'the hidden photo copied');
  // Whatever was asked for is signed by now: nothing is left to arrive late.
  await s.services.media.settled();
  assert.equal((await gallery()).has(ids.hidden), false);
  const card = (await adminPhotos()).get(ids.hidden);
  assert.equal(card.is_visible, false);
  assert.equal(card.thumbnail_url, `/media/${ids.hidden}/thumb?v=${r.derivative_version}`);
  assert.equal(card.display_url, `/media/${ids.hidden}/display?v=${r.derivative_version}`);

  // Hiding a photo served from the bucket takes it back to the site's URLs at once.
  await untilServed(ids.photo);
  assert.equal((await admin.post(`/admin/api/photos/${ids.photo}/hide`)).status, 200);
  const hiddenNow = (await adminPhotos()).get(ids.photo);
  assert.match(hiddenNow.thumbnail_url, /^\/media\//);
  assert.match(hiddenNow.display_url, /^\/media\//);
  assert.equal((await admin.post(`/admin/api/photos/${ids.photo}/approve`)).status, 200);
  await untilServed(ids.photo);
});

test('an original download stays on the site: never a bucket URL, and the bucket is not asked for it', async () => {
  const r = await row(ids.photo);
  const key = `our-wedding/${r.stored_path}`;
  assert.deepEqual(await bucket.sha256(key), sha256(sent.get(ids.photo)!), 'the bucket holds the original');
  const before = bucket.requests.length;
  const d = await admin.get(`/admin/api/photos/${ids.photo}/download`);
  assert.equal(d.status, 200);
  assert.match(d.body.download_url, /^\/media\/[^/]+\/original\?token=/);
  const res = await admin.fetch(d.body.download_url);
  assert.equal(res.status, 200);
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), fs.readFileSync(path.join(s.dataDir, r.stored_path)));
  assert.deepEqual(bucket.requests.slice(before).filter((q) => q.key === key), [], 'no request for the original went to the bucket');
  // No answer names an original's object.
  for (const item of [...(await gallery()).values(), ...(await adminPhotos()).values()]) {
    for (const url of [item.thumbnail_url, item.backblaze_url, item.display_url]) assert.ok(!url || !url.includes('/originals/'), url);
  }
});

test('a URL is reused, then renewed before it could expire, also in an answer the browser revalidates', async () => {
  const first = await untilServed(ids.photo);
  const r = await row(ids.photo);
  await s.services.media.settled();
  // Reused: the next answers give the same URL (nothing is signed per request).
  const again = await guest.fetch('/api/photos?limit=100');
  const etag = again.headers.get('etag');
  assert.ok(etag, 'the answer carries an ETag');
  const body = (await again.json()) as any;
  assert.equal(body.photos.find((p: any) => p.id === ids.photo).thumbnail_url, first.thumbnail_url);
  // The same answer, asked again as a browser does: not modified.
  assert.equal((await revalidate('/api/photos?limit=100', etag!)).status, 304);

  // Four and a half hours later: still given (an hour and a half left), and signed again meanwhile.
  shift = 4.5 * HOUR;
  assert.equal((await gallery()).get(ids.photo).thumbnail_url, first.thumbnail_url);
  await s.services.media.settled();
  const renewed = (await gallery()).get(ids.photo);
  assert.notEqual(renewed.thumbnail_url, first.thumbnail_url, 'a new URL');
  assert.ok(leftMs(assertSigned(renewed.thumbnail_url, r.thumb_path!)) > 5.9 * HOUR, 'signed at the new time');

  // The browser's copy of the earlier answer is not confirmed: it would hand out the old URLs.
  const revalidated = await revalidate('/api/photos?limit=100', etag!);
  assert.equal(revalidated.status, 200);
  const fresh = JSON.parse(revalidated.body).photos.find((p: any) => p.id === ids.photo);
  assert.equal(fresh.thumbnail_url, renewed.thumbnail_url);

  // Eleven hours on, nothing asked meanwhile: no URL with less than an hour left is given; the
  // site serves until the new one is signed.
  shift = 11 * HOUR;
  const late = (await gallery()).get(ids.photo);
  for (const url of [late.thumbnail_url, late.backblaze_url]) {
    if (fromBucket(url)) assertSigned(url, url === late.thumbnail_url ? r.thumb_path! : r.display_path!);
    else assert.match(url, /^\/media\//);
  }
  await s.services.media.settled();
  const next = (await gallery()).get(ids.photo);
  assertSigned(next.thumbnail_url, r.thumb_path!);
  assertSigned(next.backblaze_url, r.display_path!);
  const got = await fetchFromBucket(next.thumbnail_url);
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, fs.readFileSync(path.join(s.dataDir, r.thumb_path!)));
  shift = 0;
});

test('a signed URL past its lifetime is refused by the bucket (what the renewal guards against)', async () => {
  // Signing as the site would have seven hours ago: its six hours are over.
  const past = new MediaServing(s.services.offsite, { now: () => Date.now() - 7 * HOUR });
  const rel = (await row(ids.photo)).thumb_path!;
  assert.equal(past.urlFor(rel), null, 'not signed yet: the site serves it meanwhile');
  await past.settled();
  const url = past.urlFor(rel);
  assert.ok(url && fromBucket(url));
  assert.equal((await fetchFromBucket(url)).status, 403, 'an expired URL is refused');
  assert.equal((await fetchFromBucket((await gallery()).get(ids.photo).thumbnail_url)).status, 200, "the site's own URL is good");
});

test('while copying to the bucket fails, guests are sent to the site; once it answers again, to the bucket', async () => {
  await untilServed(ids.photo);
  bucket.mode = '503';
  try {
    // Work the copier cannot do: a new photo.
    await upload(await tinyImage('jpeg', 13, 320, 240), 'cake.jpg');
    await until(async () => (await admin.get('/admin/api/offsite')).body.state === 'failing', 'the copy failing', 30_000);
    const item = (await gallery()).get(ids.photo);
    assert.match(item.thumbnail_url, /^\/media\//);
    assert.match(item.backblaze_url, /^\/media\//);
    assert.equal((await guest.fetch(item.thumbnail_url)).status, 200, 'the site serves it');
  } finally {
    bucket.mode = 'pass';
  }
  await untilServed(ids.photo);
});

test('S3_PUBLIC_URL: derivatives are the public base plus the key; hidden photos still go through the site', async () => {
  const base = `${bucket.direct}/${BUCKET}`;
  const saved = await admin.put('/admin/api/offsite', { public_url: base });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  const r = await row(ids.photo);
  let item: any;
  await until(async () => {
    item = (await gallery()).get(ids.photo);
    return item?.thumbnail_url?.startsWith(base);
  }, 'public URLs', 30_000);
  assert.equal(item.thumbnail_url, `${base}/our-wedding/${r.thumb_path}`);
  assert.equal(item.backblaze_url, `${base}/our-wedding/${r.display_path}`);
  const got = await fetchFromBucket(item.backblaze_url);
  assert.equal(got.status, 200);
  assert.equal(got.type, 'image/webp');
  assert.deepEqual(got.body, fs.readFileSync(path.join(s.dataDir, r.display_path!)));
  const hidden = (await adminPhotos()).get(ids.hidden);
  assert.match(hidden.thumbnail_url, /^\/media\//);
  assert.equal((await admin.put('/admin/api/offsite', { public_url: '' })).status, 200);
});
