import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { fileLabel, formatSize } from '../../client/uploads/format.js';
import { launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { adminPhotos, galleryTiles, makeVideo, row, waitStatus } from './guest-helpers.js';

let browser: Browser;
let srv: ServerProcess;
let page: Page;
let errors: string[];
const posts: string[] = [];
/** The turn each POST was sent in (its ?turn=), '' for none. */
const turnsOfPosts: string[] = [];
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
  ({ page, errors } = await newPage(browser));
  page.on('request', (r) => {
    if (r.method() !== 'POST') return;
    const u = new URL(r.url());
    posts.push(u.pathname);
    turnsOfPosts.push(u.searchParams.get('turn') ?? '');
  });
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const photos = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'];
let clip: string;

test('guests upload real photos and a video: progress, labels, sizes, toasts, then Complete', async () => {
  clip = makeVideo('first-dance.mp4', { seconds: 3, size: '320x240' });
  await page.goto(srv.url + '/live');
  await page.getByRole('heading', { name: 'Wedding Photo Collection' }).waitFor();
  const files = [...photos.map(sample), clip];
  await page.getByTestId('file-input').setInputFiles(files);
  await page.locator('.dropzone', { hasText: 'Uploading your memories...' }).waitFor();
  assert.equal(await page.locator('.upload-item').count(), 4);
  for (const f of files) {
    const name = f.split('/').at(-1)!;
    const r = row(page, name);
    assert.ok(await r.getByRole('progressbar').isVisible(), `${name} has a progress bar`);
    const meta = await r.locator('.upload-item-meta').innerText();
    assert.match(meta, new RegExp(fileLabel(name.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg')));
    assert.ok(meta.includes(formatSize(fs.statSync(f).size)), `${name}: ${meta}`);
  }
  // "Thank you for sharing!" shows for 3 s from the last file's completion: watch for it from now.
  const thanks = page.locator('.dropzone', { hasText: 'Thank you for sharing!' }).waitFor({ timeout: 120_000 });
  thanks.catch(() => undefined);
  await page.locator('.toast', { hasText: 'Upload successful!' }).first().waitFor();
  assert.match(await page.locator('.toast', { hasText: 'Upload successful!' }).first().innerText(), /has been uploaded/);
  for (const f of files) await waitStatus(page, f.split('/').at(-1)!, 'complete');
  for (const bar of await page.getByRole('progressbar').all()) assert.equal(await bar.getAttribute('aria-valuenow'), '100');
  assert.deepEqual(posts.filter((p) => p === '/api/upload').length, 4, 'small files go in one request each');
  await thanks;
  await screenshot(page, 'guest-live-uploaded');

  // The insights card appears with the new numbers.
  const insights = page.locator('.insights');
  await insights.waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="insights-videos"]')?.textContent === '1');
  assert.equal(await insights.getByTestId('insights-images').innerText(), '3');
  assert.match(await insights.getByTestId('insights-size').innerText(), /^\d+\.\d MB$/);
  // Camera names are text a guest chose: none is shown before the couple approves a photo.
  assert.deepEqual(await insights.locator('.camera-name').allInnerTexts(), []);
  assert.equal(Number(await insights.getByTestId('insights-devices').innerText()), 0);

  // Success goes back to idle after 3 s; the box takes files again.
  await page.locator('.dropzone', { hasText: 'Drag and drop photos and videos here' }).waitFor({ timeout: 6000 });
});

test('the same photo again is detected as a duplicate and skipped', async () => {
  await page.getByTestId('file-input').setInputFiles(sample('Canon_40D.jpg'));
  const toast = page.locator('.toast', { hasText: 'Duplicate photo detected' });
  await toast.waitFor();
  assert.match(await toast.innerText(), /Canon_40D\.jpg was already uploaded and was skipped/);
  const dup = page.locator('.upload-item[data-status="duplicate"]');
  await dup.waitFor();
  assert.match(await dup.innerText(), /Already uploaded - skipped/);
  await page.getByRole('button', { name: 'Clear Completed' }).click();
  assert.equal(await page.locator('.upload-item').count(), 0);
});

test('a file over 5 MB goes up in chunks', async () => {
  const big = makeVideo('reception-lossless.mp4', { seconds: 4, size: '1280x720', lossless: true });
  const size = fs.statSync(big).size;
  assert.ok(size > 5_242_880, `test file is ${size} bytes`);
  await page.locator('.dropzone', { hasText: 'Drag and drop' }).waitFor({ timeout: 6000 });
  const before = posts.length;
  await page.getByTestId('file-input').setInputFiles(big);
  await waitStatus(page, 'reception-lossless.mp4', 'complete', 90_000);
  const sent = posts.slice(before);
  assert.equal(sent.filter((p) => p === '/api/upload-chunk').length, Math.ceil(size / 5_242_880));
  assert.equal(sent.filter((p) => p === '/api/upload').length, 0);
  // Each chunk waited for its turn (GET /api/upload-turn) and went with it, each turn its own.
  const turns = turnsOfPosts.slice(before).filter((_, i) => sent[i] === '/api/upload-chunk');
  assert.ok(turns.every((t) => t.length > 0), `every chunk went in a turn: ${JSON.stringify(turns)}`);
  assert.equal(new Set(turns).size, turns.length);
  const admin = new TestClient(srv.url);
  await admin.login();
  const stored = (await adminPhotos(admin)).find((p) => p.original_filename === 'reception-lossless.mp4');
  assert.equal(stored?.file_size, size);
});

test('an approved photo appears in the gallery and opens in the viewer with its camera; the video plays and seeks', async () => {
  const admin = new TestClient(srv.url);
  await admin.login();
  const all = await adminPhotos(admin);
  const canon = all.find((p) => p.original_filename === 'Canon_40D.jpg')!;
  const video = all.find((p) => p.original_filename === 'first-dance.mp4')!;
  for (const p of [canon, video]) assert.equal((await admin.post(`/admin/api/photos/${p.id}/approve`)).status, 200);

  await page.goto(srv.url + '/gallery');
  await galleryTiles(page).nth(1).waitFor();
  assert.match(await page.getByTestId('gallery-count').innerText(), /^2 photo\(s\) and video\(s\) shared by our guests$/);
  assert.equal(await page.locator('.gallery-grid li').count(), 2);
  // The first thumbnail at once, the others lazily.
  assert.deepEqual(await page.locator('.gallery-grid img').evaluateAll((els) => els.map((e) => e.getAttribute('loading'))), ['eager', 'lazy']);

  await page.getByRole('button', { name: 'Open photo Canon_40D.jpg' }).click();
  const viewer = page.getByRole('dialog');
  await viewer.waitFor();
  await viewer.locator('.viewer-media img').evaluate((img: HTMLImageElement) => img.decode());
  assert.equal(await viewer.getByTestId('viewer-camera').innerText(), 'Canon EOS 40D');
  assert.match(await viewer.getByTestId('viewer-dimensions').innerText(), /^\d+ × \d+$/);
  assert.ok(await viewer.getByTestId('viewer-taken').isVisible());
  assert.ok(await viewer.getByTestId('viewer-uploaded').isVisible());
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Close');
  await screenshot(page, 'guest-viewer-photo');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Open photo Canon_40D.jpg');

  await page.getByRole('button', { name: 'Open video first-dance.mp4' }).click();
  const v = page.locator('[role="dialog"] video');
  await v.waitFor();
  const played = await v.evaluate(async (el: HTMLVideoElement) => {
    el.muted = true;
    if (el.readyState < 1) await new Promise((r) => el.addEventListener('loadedmetadata', r, { once: true }));
    await el.play();
    await new Promise((r) => setTimeout(r, 300));
    el.pause();
    const seeked = new Promise((r) => el.addEventListener('seeked', r, { once: true }));
    el.currentTime = 2;
    await seeked;
    return { duration: el.duration, time: el.currentTime, controls: el.controls, inline: el.playsInline, error: el.error?.code ?? null };
  });
  assert.equal(played.error, null);
  assert.ok(played.duration > 2.5 && played.duration < 3.5, `duration ${played.duration}`);
  assert.ok(Math.abs(played.time - 2) < 0.1, `seeked to ${played.time}`);
  assert.ok(played.controls && played.inline);
  await screenshot(page, 'guest-viewer-video');
  await page.locator('[data-testid="viewer-backdrop"]').click({ position: { x: 5, y: 5 } });
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  assert.deepEqual(errors, []);
});

test('phone width with content: no horizontal scrolling on /live and /gallery', async () => {
  const { page: phone } = await newPage(browser, { width: 390, height: 844 });
  await phone.goto(srv.url + '/live');
  await phone.getByTestId('file-input').setInputFiles(sample('mobile_jolla.jpg'));
  await waitStatus(phone, 'mobile_jolla.jpg', 'complete');
  await phone.locator('.insights').waitFor();
  for (const path of ['/live', '/gallery']) {
    if (path !== '/live') await phone.goto(srv.url + path);
    await phone.locator('footer').waitFor();
    // Measured with the photos in place, not the loading skeleton.
    if (path === '/gallery') await galleryTiles(phone).first().waitFor();
    const [scroll, inner] = await phone.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `${path}: scrollWidth ${scroll} <= innerWidth ${inner}`);
  }
  await galleryTiles(phone).first().waitFor();
  await screenshot(phone, 'guest-phone-gallery-content');
  await phone.goto(srv.url + '/live');
  await screenshot(phone, 'guest-phone-live-insights');
  await phone.context().close();
});
