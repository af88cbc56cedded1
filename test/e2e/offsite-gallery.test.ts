// The guests' gallery in Chromium with S3_SERVE=true: thumbnails and the viewer's display image
// load from the couple's bucket (s3rver on loopback, another origin than the site) by signed URLs,
// decoded by the browser; the site serves none of them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { TestClient } from '../helpers/server.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let browser: Browser;
let srv: ServerProcess;
let bucket: TestBucket;
const ids: string[] = [];

const signedFromBucket = (url: string | null | undefined) => !!url && url.startsWith(bucket.endpoint + '/') && new URL(url).searchParams.has('X-Amz-Signature');

before(async () => {
  bucket = await startBucket({ prefix: 'wedding' });
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { ...bucket.env, S3_SERVE: 'true' }).start()]);
  const admin = new TestClient(srv.url);
  await admin.login();
  for (let i = 0; i < 3; i++) {
    const r = await uploadFile(srv.url, await tinyImage('jpeg', 40 + i, 800, 600), `dance-${i}.jpg`);
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(await waitForStatus(srv.url, r.body.photo_id), 'complete');
    assert.equal((await admin.post(`/admin/api/photos/${r.body.photo_id}/approve`)).status, 200);
    ids.push(r.body.photo_id);
  }
  // Copied, then signed: the gallery's answer names the bucket for every photo.
  await until(async () => {
    const page = (await (await fetch(srv.url + '/api/photos')).json()) as { photos: { thumbnail_url: string; backblaze_url: string }[] };
    return page.photos.length === 3 && page.photos.every((p) => signedFromBucket(p.thumbnail_url) && signedFromBucket(p.backblaze_url));
  }, 'every photo served from the bucket', 60_000);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
  await bucket?.close();
});

test('the gallery shows thumbnails from the bucket, decoded; the viewer shows the display image from it', async () => {
  const { page, errors } = await newPage(browser);
  const fromSite: string[] = [];
  const fromBucket: { url: string; status: number; type: string | undefined }[] = [];
  page.on('response', (r) => {
    if (r.url().startsWith(srv.url + '/media/')) fromSite.push(r.url());
    if (r.url().startsWith(bucket.endpoint + '/')) fromBucket.push({ url: r.url(), status: r.status(), type: r.headers()['content-type'] });
  });
  await page.goto(srv.url + '/gallery');
  const thumbs = page.locator('.gallery-grid .gallery-tile img');
  await until(async () => (await thumbs.count()) === 3, 'three thumbnails', 20_000);
  // Every thumbnail decoded (a broken image has no natural width; one that failed would show the "cannot be shown" tile).
  await page.waitForFunction(
    () => {
      const imgs = [...document.querySelectorAll<HTMLImageElement>('.gallery-grid .gallery-tile img')];
      return imgs.length === 3 && imgs.every((i) => i.complete && i.naturalWidth > 0);
    },
    undefined,
    { timeout: 20_000 },
  );
  for (const src of await thumbs.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src))) assert.ok(signedFromBucket(src), src);
  assert.equal(await page.getByTestId('unshowable').count(), 0);

  // The viewer's display image, from the bucket too.
  await page.locator('.gallery-tile').first().click();
  const shown = page.locator('.viewer-media img');
  await shown.waitFor();
  await page.waitForFunction(() => {
    const i = document.querySelector<HTMLImageElement>('.viewer-media img');
    return !!i && i.complete && i.naturalWidth > 0;
  });
  const src = await shown.getAttribute('src');
  assert.ok(signedFromBucket(src) && /\/display-v\d+\.webp\?/.test(src!), String(src));
  await screenshot(page, 'offsite-gallery-viewer');

  assert.ok(fromBucket.length >= 4, `${fromBucket.length} answers from the bucket`);
  for (const r of fromBucket) {
    assert.equal(r.status, 200, r.url);
    assert.equal(r.type, 'image/webp', r.url);
  }
  assert.deepEqual(fromSite, [], 'no thumbnail or display image came through the site');
  assert.deepEqual(errors, []);
  await page.context().close();
});
