import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FAKE_MEDIA, launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { row, waitStatus } from './guest-helpers.js';

// The camera on /live in Chromium with its fake camera and microphone (a test pattern and a beep).
let browser: Browser;
let refusing: Browser;
let srv: ServerProcess;
before(async () => {
  // Without the fake permission prompt a headless Chromium refuses the camera: a guest who said no.
  [browser, refusing, srv] = await Promise.all([launchBrowser(FAKE_MEDIA), launchBrowser(['--use-fake-device-for-media-stream']), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
});
after(async () => {
  await browser?.close();
  await refusing?.close();
  await srv?.stop();
});

/** The stored row of the newest photo whose file name matches (read from the site's database). */
function photoNamed(name: RegExp): any {
  const db = new Database(path.join(srv.dataDir, 'wedding.db'), { readonly: true });
  try {
    return (db.prepare('SELECT * FROM photos ORDER BY upload_timestamp DESC').all() as any[]).find((p) => name.test(p.original_filename));
  } finally {
    db.close();
  }
}

async function openCamera(page: Page, which: 'camera-photo' | 'camera-video'): Promise<{ width: number; height: number }> {
  await page.getByTestId(which).click();
  await page.getByTestId('camera-sheet').waitFor();
  const shutter = page.getByTestId(which === 'camera-photo' ? 'camera-shutter' : 'camera-record');
  await shutter.waitFor();
  await page.waitForFunction(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid=camera-viewfinder]');
    return !!v && v.videoWidth > 0 && v.readyState >= 2;
  });
  await page.waitForFunction((id) => !(document.querySelector(`[data-testid=${id}]`) as HTMLButtonElement).disabled, which === 'camera-photo' ? 'camera-shutter' : 'camera-record');
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid=camera-viewfinder]')!;
    return { width: v.videoWidth, height: v.videoHeight };
  });
}

test('a photo taken in the page: shown at once, retaken, sent through the upload queue, stored at the camera\'s size with its capture time', async (t) => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  const size = await openCamera(page, 'camera-photo');
  assert.ok(size.width >= 640 && size.height >= 480, JSON.stringify(size));
  // The shutter is reached by keyboard and answers at once.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'camera-shutter');
  await page.keyboard.press('Enter');
  await page.getByTestId('camera-preview').waitFor();
  await page.getByTestId('camera-retake').click();
  await page.getByTestId('camera-shutter').click();
  await page.getByTestId('camera-preview').waitFor();
  // At once: the frame on screen is shown at the screen's size, painted before the full-size photo
  // is even begun (how long that takes is bench:camera's to measure; on a busy machine any frame waits).
  const timings = await page.evaluate(() => window.__cameraTimings!);
  assert.equal(timings.shutterToPreviewMs.length, 2);
  assert.deepEqual(timings.previewFirst, [true, true], 'the preview is painted before the full-size photo starts');
  const shown = await page.getByTestId('camera-preview').evaluate((c: HTMLCanvasElement) => Math.max(c.width, c.height));
  assert.ok(shown <= 740 * 2 && shown < Math.max(size.width, size.height), `the preview is drawn at the screen's size (${shown} px), not the camera's (${size.width}x${size.height})`);
  t.diagnostic(`shutter to preview: ${timings.shutterToPreviewMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  await screenshot(page, 'camera-photo-preview');
  const before = Date.now();
  await page.getByTestId('camera-send').click();
  await page.locator('.camera-status', { hasText: 'On its way!' }).waitFor();
  // The camera stays open for the next one; closing it shows the upload list.
  await page.getByRole('button', { name: 'Close the camera' }).click();
  const item = page.locator('.upload-item').filter({ hasText: /^photo-\d{8}-\d{6}\.jpg/ });
  await item.first().waitFor();
  const name = (await item.first().locator('.upload-item-name').innerText()).trim();
  await waitStatus(page, name, 'complete').catch(async (e) => {
    throw new Error(`${name}: ${await item.first().innerText()}; ${srv.log.slice(-1500)}`, { cause: e });
  });
  const stored = photoNamed(/^photo-\d{8}-\d{6}\.jpg$/);
  assert.ok(stored, 'stored');
  assert.equal(stored.content_type, 'image/jpeg');
  assert.ok(stored.width * stored.height >= size.width * size.height, `stored ${stored.width}x${stored.height}, camera ${size.width}x${size.height}`);
  assert.equal(stored.width / stored.height, size.width / size.height);
  assert.equal(stored.is_visible, 0, 'waits for approval like any upload');
  const taken = Date.parse(stored.date_taken);
  assert.ok(Math.abs(taken - before) < 60_000, `date taken ${stored.date_taken}`);
  assert.deepEqual(errors, []);
});

test('a short video recorded in the page: a countdown from 1:00, stored as a video at the camera\'s size with its capture time', async () => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  const size = await openCamera(page, 'camera-video');
  const before = Date.now();
  await page.getByTestId('camera-record').click();
  await page.getByTestId('camera-countdown').waitFor();
  assert.match(await page.getByTestId('camera-countdown').innerText(), /[01]:\d\d left/);
  await page.waitForTimeout(2500);
  assert.match(await page.getByTestId('camera-countdown').innerText(), /0:5[6-9] left/);
  await page.getByRole('button', { name: 'Stop recording' }).click();
  await page.getByTestId('camera-preview').waitFor();
  await page.getByTestId('camera-send').click();
  await page.getByRole('button', { name: 'Close the camera' }).click();
  const item = page.locator('.upload-item').filter({ hasText: /^video-\d{8}-\d{6}\.(webm|mp4)/ });
  await item.first().waitFor();
  const name = (await item.first().locator('.upload-item-name').innerText()).trim();
  // Stored and measured (its web copy may take a while longer on a busy machine).
  await row(page, name).and(page.locator('[data-status="processing"], [data-status="complete"]')).waitFor({ timeout: 120_000 });
  const deadline = Date.now() + 90_000;
  while (!(photoNamed(/^video-/)?.width > 0) && Date.now() < deadline) await page.waitForTimeout(500);
  const stored = photoNamed(/^video-/);
  assert.match(stored.content_type, /^video\//);
  assert.equal(`${stored.width}x${stored.height}`, `${size.width}x${size.height}`);
  assert.notEqual(stored.status, 'error', stored.processing_error);
  assert.ok(stored.thumb_path, 'its thumbnail is made');
  assert.ok(Math.abs(Date.parse(stored.date_taken) - before) < 60_000, `date taken ${stored.date_taken}`);
  assert.deepEqual(errors, []);
});

test('a refused camera: one sentence says why, and the phone\'s own camera (the file input) still uploads', async () => {
  const { page } = await newPage(refusing, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  await page.getByTestId('camera-photo').click();
  const problem = page.getByTestId('camera-problem');
  await problem.waitFor();
  assert.equal((await problem.getByRole('alert').innerText()).trim(), "Your browser did not allow this page to use the camera: allow it in the browser's settings, or take it with your phone's own camera instead.");
  assert.ok(await page.getByRole('button', { name: "Use my phone's camera" }).isVisible());
  assert.equal(await page.getByTestId('camera-file-input').getAttribute('capture'), 'environment');
  await page.getByTestId('camera-file-input').setInputFiles(sample('Nikon_D70.jpg'));
  await waitStatus(page, 'Nikon_D70.jpg', 'complete');
  const stored = photoNamed(/^Nikon_D70\.jpg$/);
  assert.ok(stored);
  assert.equal(stored.camera_model, 'NIKON D70');
  assert.match(stored.date_taken, /^2008-03-15T09:52:01/, 'the file\'s own date wins over the time it was chosen');
  await screenshot(page, 'camera-refused');
});

test('frames: the couple picks one of four; the guest may add it to a photo taken in the page (names and date drawn around it), and what they choose is what is stored', async () => {
  const admin = new TestClient(srv.url);
  await admin.login();
  const settings = await admin.get('/admin/api/settings');
  assert.deepEqual(settings.body.frames.map((f: { id: string }) => f.id), ['classic', 'polaroid', 'film', 'garden']);
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  for (const frame of ['classic', 'polaroid', 'film', 'garden']) {
    assert.equal((await admin.put('/admin/api/settings', { frame })).status, 200);
    await page.goto(srv.url + '/live');
    const size = await openCamera(page, 'camera-photo');
    await page.getByTestId('camera-shutter').click();
    const plain = await page.getByTestId('camera-preview').evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
    await page.getByLabel('Add the frame with our names and the date').check();
    const framed = page.locator(`[data-testid=camera-preview][data-frame=${frame}]`);
    await framed.waitFor();
    const [w, h] = await framed.evaluate((c: HTMLCanvasElement) => [c.width, c.height]);
    assert.ok(w > plain[0] && h > plain[1], `${frame}: ${w}x${h} around ${plain.join('x')}`);
    await screenshot(page, `camera-frame-${frame}`);
    if (frame !== 'garden') {
      await page.getByRole('button', { name: 'Close the camera' }).click();
      continue;
    }
    await page.getByTestId('camera-send').click();
    await page.getByRole('button', { name: 'Close the camera' }).click();
    const item = page.locator('.upload-item').filter({ hasText: /^photo-\d{8}-\d{6}\.jpg/ });
    const name = (await item.last().locator('.upload-item-name').innerText()).trim();
    await waitStatus(page, name, 'complete');
    const stored = photoNamed(new RegExp(`^${name}$`));
    assert.ok(stored.width > size.width && stored.height > size.height, `framed photo stored ${stored.width}x${stored.height} (camera ${size.width}x${size.height})`);
  }
  assert.deepEqual(errors, []);
});
