import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { makeClip } from '../server/formats-fixtures.js';

/** Uploads bytes as a guest's browser does; resolves with the id once processing has ended (complete or error). */
async function upload(base: string, bytes: Buffer, name: string, type: string): Promise<{ id: string; status: string }> {
  const fd = new FormData();
  fd.append('session_id', 'formats-e2e');
  fd.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(base + '/api/upload', { method: 'POST', body: fd });
  const body = (await res.json()) as { photo_id: string };
  assert.equal(res.status, 201, `${name}: ${JSON.stringify(body)}`);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    const s = (await (await fetch(`${base}/api/photos/${body.photo_id}/status`)).json()) as { status: string };
    if (s.status !== 'processing') return { id: body.photo_id, status: s.status };
  }
  throw new Error(`${name} still processing`);
}

/**
 * Every phone's media in real Chromium: an iPhone HEIC photo shows in the gallery, an iPhone
 * HEVC HDR video plays in the gallery's viewer, and a photo that could not be processed says so.
 */
describe('phone formats in a browser', () => {
  const server = new ServerProcess();
  let browser: Browser;
  const ids: Record<string, string> = {};

  before(async () => {
    await server.start();
    browser = await launchBrowser();
    const admin = new TestClient(server.url);
    await admin.login();
    const heic = await upload(server.url, fs.readFileSync(sample('heic_IMG_5195.HEIC')), 'IMG_5195.HEIC', 'image/heic');
    const video = await upload(server.url, fs.readFileSync(makeClip('hlg-mov', 'e2e')), 'IMG_0420.MOV', 'video/quicktime');
    const broken = await upload(server.url, fs.readFileSync(sample('corrupted.jpg')), 'broken.jpg', 'image/jpeg');
    assert.deepEqual([heic.status, video.status, broken.status], ['complete', 'complete', 'error']);
    Object.assign(ids, { heic: heic.id, video: video.id, broken: broken.id });
    for (const id of Object.values(ids)) assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  test('the HEIC photo shows in the gallery (Chromium decodes its thumbnail) and in the viewer', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(server.url + '/gallery');
    const thumb = page.locator(`img[src*="${ids.heic}"]`).first();
    await thumb.waitFor();
    await page.waitForFunction((id) => {
      const img = document.querySelector<HTMLImageElement>(`img[src*="${id}"]`);
      return !!img && img.complete && img.naturalWidth > 0;
    }, ids.heic);
    const [w, h] = await thumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
    assert.ok(h > w, `upright portrait thumbnail, got ${w}x${h}`);
    await page.getByRole('button', { name: 'Open photo IMG_5195.HEIC' }).click();
    await page.waitForFunction((id) => {
      const img = document.querySelector<HTMLImageElement>(`[role="dialog"] img[src*="${id}"]`);
      return !!img && img.complete && img.naturalWidth > 0;
    }, ids.heic);
    await screenshot(page, 'formats-heic-viewer');
    await context.close();
  });

  test('the iPhone HEVC HDR video plays in the gallery viewer', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(server.url + '/gallery');
    await page.getByRole('button', { name: 'Open video IMG_0420.MOV' }).click();
    const video = page.locator('[role="dialog"] video');
    await video.waitFor();
    assert.match((await video.getAttribute('src')) ?? '', new RegExp(`/media/${ids.video}/display`));
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('[role="dialog"] video');
      return !!v && (v.readyState >= 2 || v.error !== null);
    }, undefined, { timeout: 20_000 });
    const state = await video.evaluate((v: HTMLVideoElement) => ({ ready: v.readyState, error: v.error?.code ?? null, w: v.videoWidth, h: v.videoHeight }));
    assert.equal(state.error, null);
    assert.ok(state.ready >= 2, `readyState ${state.ready}`);
    assert.deepEqual([state.w, state.h], [180, 320], 'played upright');
    assert.deepEqual(errors, []);
    await screenshot(page, 'formats-video-viewer');
    await context.close();
  });

  test('an approved photo whose processing failed says so, in the gallery and in the admin panel', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(server.url + '/gallery');
    const tile = page.getByRole('button', { name: 'Open photo broken.jpg' });
    await tile.getByText('This photo cannot be shown').waitFor();
    await screenshot(page, 'formats-unshowable-gallery');
    await uiLogin(page, server.url);
    await page.goto(server.url + '/admin/photos');
    const card = page.getByTestId('photo-card').filter({ hasText: 'broken.jpg' });
    await card.getByText('This photo cannot be shown').waitFor();
    // The video's card plays its web copy in place.
    const adminVideo = page.getByTestId('photo-card').filter({ hasText: 'IMG_0420.MOV' }).locator('video');
    assert.match((await adminVideo.getAttribute('src')) ?? '', new RegExp(`/media/${ids.video}/display`));
    await screenshot(page, 'formats-unshowable-admin');
    await context.close();
  });

  test('the upload box offers HEIC, HEIF, AVIF, WebM and M4V, and names them when it refuses a file', async () => {
    const { page, context } = await newPage(browser, { width: 360, height: 800 });
    await page.goto(server.url + '/live');
    const accept = (await page.getByTestId('file-input').getAttribute('accept')) ?? '';
    for (const t of ['image/heic', '.heic', 'image/heif', '.heif', 'image/avif', '.avif', 'video/webm', '.webm', 'video/x-m4v', '.m4v']) assert.ok(accept.includes(t), `accepts ${t}`);
    await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    const toast = page.locator('.toast', { hasText: 'notes.txt' });
    await toast.waitFor();
    assert.match(await toast.innerText(), /File type must be one of .*image\/heic.*video\/webm/s);
    await context.close();
  });
});

