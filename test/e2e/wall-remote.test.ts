// The wall that runs itself, in Chromium: the layouts at 1920x1080 and 1024x768 with a readable
// QR code, and the couple's remote on a phone (360 px, by keyboard) steering two open walls:
// layout, show, next, announcement and curtain reach them within a second, without a reload;
// both are listed by the heartbeat; a video plays muted (one at a time and in a mosaic tile). Tables: each sign decodes to
// /live?table=N, an upload from such a page carries its table, the wall shows the busiest tables.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, ElementHandle, Page } from 'playwright-core';
import { newPage, screenshot, ServerProcess, startBrowserAndServer, stopBrowserAndServer, uiLogin } from '../helpers/browser.js';
import { adminClient, userClient, type TestClient } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { makeVideo, tinyImage } from '../helpers/uploads.js';
import { sample } from '../helpers/samples.js';
import { adminPhotos, waitStatus } from './guest-helpers.js';
import { decodeQrPng, guestUpload, waitProcessed } from './wall-helpers.js';

let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;
const photoIds: string[] = [];
before(async () => {
  [browser, srv] = await startBrowserAndServer();
  admin = await adminClient(srv.url);
  await userClient(srv.url, admin, 'family', 'remotefamily');
  const dir = tempDir('wall-remote-');
  for (let i = 0; i < 14; i++) {
    const file = path.join(dir, `party-${i}.jpg`);
    fs.writeFileSync(file, await tinyImage('jpeg', i * 17 + 3, 1200, 800));
    photoIds.push(await guestUpload(srv.url, file));
  }
  for (const id of photoIds) await waitProcessed(srv.url, id);
  const r = await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: photoIds, action: 'show' });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});
after(() => stopBrowserAndServer(browser, srv));

/** The photos on the wall's tiles now (distinct ids). */
const tileIds = (wall: Page) => wall.locator('.wall-tile[data-photo-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-photo-id')!));

async function readableQr(wall: Page): Promise<void> {
  const qr = wall.locator('.wall-qr').first();
  await qr.evaluate((img: HTMLImageElement) => img.decode());
  assert.equal(await decodeQrPng(await qr.screenshot()), `${srv.url}/live`);
  assert.ok(await wall.locator('.wall-share-url').first().isVisible());
}

/**
 * Waits until `check` holds on the wall, and says how long it took from `since`. The time is the
 * benchmark's to judge (bench:wall-commands, p99 < 1 s); here the command must arrive, on a
 * machine that may be running other browser tests at once.
 */
async function within(wall: Page, since: number, check: (arg: string) => boolean, arg = ''): Promise<number> {
  await wall.waitForFunction(check, arg, { timeout: 20_000, polling: 20 }).catch(async (e) => {
    const seen = await wall.evaluate(() => [...document.querySelectorAll('[data-photo-id]')].map((el) => `${el.className}:${el.getAttribute('data-photo-id')}`).join(' ') + ' | ' + document.querySelector('main')?.getAttribute('data-layout'));
    throw new Error(`${(e as Error).message}; waiting for ${arg}; the wall shows ${seen}`);
  });
  return Date.now() - since;
}

test('layouts at 16:9 and 4:3 from the remote on a phone by keyboard; show, next, announcement and curtain reach both walls without a reload (their time: bench:wall-commands); the heartbeat lists them', async () => {
  const { page: wall, errors } = await newPage(browser, { width: 1920, height: 1080 });
  await wall.goto(srv.url + '/wall?interval=4000');
  await wall.locator('.wall-slide img.wall-media').first().waitFor({ timeout: 20_000 });
  const { page: second } = await newPage(browser, { width: 1024, height: 768 });
  await second.goto(srv.url + '/wall?interval=4000');
  await second.locator('.wall-slide img.wall-media').first().waitFor({ timeout: 20_000 });

  const { page: remote } = await newPage(browser, { width: 360, height: 740 });
  await uiLogin(remote, srv.url, 'remotefamily', 'password-family');
  await remote.goto(srv.url + '/admin/remote');
  await remote.getByText('2 walls connected').waitFor({ timeout: 20_000 });
  assert.ok(await remote.evaluate(() => document.documentElement.scrollWidth <= 360), 'no sideways scrolling at 360 px');
  await screenshot(remote, 'wall-remote-phone');

  // The layout by keyboard: the radio group, arrow down from "One photo at a time" to the mosaic.
  const single = remote.getByRole('radio', { name: 'One photo at a time' });
  await single.waitFor();
  await remote.waitForFunction(() => !document.querySelector<HTMLInputElement>('input[type=radio]')!.closest('fieldset')!.disabled);
  await single.focus();
  let t0 = Date.now();
  await remote.keyboard.press('ArrowDown');
  const took = await within(wall, t0, () => document.querySelectorAll('.wall-mosaic .wall-tile[data-photo-id]').length === 11);
  await second.waitForFunction(() => document.querySelectorAll('.wall-mosaic .wall-tile[data-photo-id]').length === 8, undefined, { timeout: 5000 });
  assert.equal(new Set(await tileIds(wall)).size, 11, '11 distinct photos on a 16:9 mosaic');
  assert.equal(new Set(await tileIds(second)).size, 8, '8 distinct photos on a 4:3 mosaic');
  assert.equal(await wall.evaluate(() => performance.getEntriesByType('navigation').length), 1);
  await readableQr(wall);
  await readableQr(second);
  assert.ok(await remote.getByRole('radio', { name: 'Mosaic: a grid of photos' }).isChecked());
  await screenshot(wall, 'wall-mosaic-1920');
  await screenshot(second, 'wall-mosaic-1024');

  await remote.keyboard.press('ArrowDown');
  await wall.waitForFunction(() => document.querySelectorAll('.wall-magazine .wall-tile[data-photo-id]').length === 4, undefined, { timeout: 5000 });
  await second.waitForFunction(() => document.querySelectorAll('.wall-magazine .wall-tile[data-photo-id]').length === 3, undefined, { timeout: 5000 });
  assert.equal(new Set(await tileIds(wall)).size, 4);
  assert.equal(new Set(await tileIds(second)).size, 3);
  await readableQr(wall);
  await readableQr(second);
  await screenshot(wall, 'wall-magazine-1920');
  // The screen fills: the large photo takes the height of the page, no letterbox around the grid.
  const big = await wall.locator('.wall-tile-0').boundingBox();
  assert.ok(big && big.height > 1000 && big.width > 900, JSON.stringify(big));

  // Back to one photo at a time.
  await remote.keyboard.press('ArrowUp');
  await remote.keyboard.press('ArrowUp');
  // Both walls back on one photo at a time before the next command (the second may take longer).
  for (const w of [wall, second]) await w.locator('main[data-layout="single"] .wall-slide img.wall-media').first().waitFor({ timeout: 10_000 });
  await readableQr(wall);

  // Show this photo now: by keyboard on its button.
  const target = photoIds[5];
  const pick = remote.getByRole('button', { name: 'Show on the wall now: party-5.jpg' });
  await pick.focus();
  t0 = Date.now();
  await remote.keyboard.press('Enter');
  for (const w of [wall, second]) {
    const ms = await within(w, t0, (id: string) => !!document.querySelector(`.wall-slide:not(.leaving)[data-photo-id="${id}"]`), target);
  }

  // Next.
  await remote.getByRole('button', { name: 'Next', exact: true }).focus();
  t0 = Date.now();
  await remote.keyboard.press('Enter');
  const ms = await within(wall, t0, (id: string) => !document.querySelector(`.wall-slide:not(.leaving)[data-photo-id="${id}"]`) && !!document.querySelector('.wall-slide:not(.leaving)'), target);

  // An announcement over both walls.
  await remote.getByLabel('Text over the wall (at most 140 characters)').fill('The cake is being cut!');
  t0 = Date.now();
  await remote.getByRole('button', { name: 'Show on the wall', exact: true }).click();
  for (const w of [wall, second]) {
    const took2 = await within(w, t0, () => document.querySelector('[data-testid="wall-announcement"]')?.textContent === 'The cake is being cut!');
  }
  await screenshot(wall, 'wall-announcement');

  // The curtain: only the names, no photo, no QR code, no address; then back where it was.
  t0 = Date.now();
  await remote.getByRole('button', { name: 'Draw the curtain' }).click();
  await within(wall, t0, () => !!document.querySelector('.wall-curtain'));
  assert.equal(await wall.locator('.wall-curtain-names').innerText(), 'Emma and James');
  assert.equal(await wall.locator('.wall-qr, .wall-share-url, img.wall-media').count(), 0);
  await screenshot(wall, 'wall-curtain');
  await remote.getByRole('button', { name: 'Open the curtain' }).click();
  await wall.locator('main[data-layout="single"] .wall-slide img.wall-media').first().waitFor({ timeout: 5000 });

  // The heartbeat: both walls listed with what they show (a change is reported within a second or two).
  let walls = (await admin.get('/admin/api/walls')).body;
  for (let i = 0; i < 30 && !walls.walls.every((w: { showing: string; blank: boolean }) => photoIds.includes(w.showing) && !w.blank); i++) {
    await new Promise((r) => setTimeout(r, 100));
    walls = (await admin.get('/admin/api/walls')).body;
  }
  assert.equal(walls.connected, 2);
  assert.equal(walls.walls.length, 2);
  for (const w of walls.walls) assert.ok(photoIds.includes(w.showing) && !w.blank && !w.lost, JSON.stringify(w));
  assert.deepEqual(errors, []);
  await Promise.all([wall.context().close(), second.context().close(), remote.context().close()]);
});

test('a video plays on the wall muted and inline, in the single layout and in a mosaic tile', async () => {
  const dir = tempDir('wall-video-');
  const file = path.join(dir, 'first-dance.mp4');
  fs.writeFileSync(file, makeVideo('mp4', [], 6));
  const id = await guestUpload(srv.url, file, 'video/mp4');
  await waitProcessed(srv.url, id);
  assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  assert.equal((await admin.put('/admin/api/wall', { layout: 'single', blank: false, paused: false })).status, 200);
  const { page: wall, errors } = await newPage(browser, { width: 1280, height: 720 });
  await wall.goto(srv.url + '/wall?interval=4000');
  // The first slide may be the video itself (just approved, so shown next): any slide will do.
  await wall.locator('.wall-slide .wall-media').first().waitFor({ timeout: 20_000 });
  await wall.waitForFunction(() => document.querySelector('main.wall')?.getAttribute('data-layout') === 'single');
  assert.equal((await admin.post('/admin/api/wall/command', { command: 'show', photo_id: id })).status, 200);
  // The video may already be up (a new arrival comes first): the command then crossfades it into
  // itself, and for a moment the leaving slide holds the same video. The one that stays counts.
  const video = wall.locator(`.wall-slide:not(.leaving)[data-photo-id="${id}"] video`);
  await video.waitFor({ timeout: 5000 });
  await wall.waitForFunction((vid: string) => {
    const v = document.querySelector<HTMLVideoElement>(`.wall-slide:not(.leaving)[data-photo-id="${vid}"] video`);
    return !!v && v.currentTime > 0.5 && !v.paused;
  }, id, { timeout: 10_000 });
  assert.deepEqual(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.playsInline]), [true, true]);

  // In a mosaic tile too: its still drawn underneath, the clip playing muted over it (tiles change every second here).
  assert.equal((await admin.put('/admin/api/wall', { layout: 'mosaic' })).status, 200);
  await wall.goto(srv.url + '/wall?interval=1000');
  const tile = `.wall-mosaic .wall-tile[data-photo-id="${id}"]`;
  // The same element's time goes on (tracked per element: the tile may change meanwhile, or the clip loop round).
  const playing = await wall.waitForFunction((sel: string) => {
    const w = window as unknown as { __from?: WeakMap<HTMLVideoElement, number> };
    const from = (w.__from ??= new WeakMap());
    const v = document.querySelector<HTMLVideoElement>(`${sel} video`);
    if (!v || v.paused) return false;
    const t0 = from.get(v);
    if (t0 === undefined || v.currentTime < t0) return void from.set(v, v.currentTime), false;
    return v.currentTime > t0 + 0.3 && v;
  }, tile, { timeout: 30_000, polling: 50 });
  const clip = playing as unknown as ElementHandle<HTMLVideoElement>;
  await screenshot(wall, 'wall-mosaic-video');
  const state = await clip.evaluate((v) => {
    const still = v.parentElement?.querySelector<HTMLImageElement>('img.wall-tile-media');
    return { muted: v.muted, inline: v.playsInline, loop: v.loop, still: !!still && still.complete && still.naturalWidth > 0 };
  });
  assert.deepEqual(state, { muted: true, inline: true, loop: true, still: true });
  // When its tile changes, the element lets go of the file.
  await wall.waitForFunction((v: HTMLVideoElement) => !v.isConnected, clip, { timeout: 30_000 });
  assert.equal(await clip.evaluate((v) => v.getAttribute('src')), null);
  assert.equal((await admin.put('/admin/api/wall', { layout: 'single' })).status, 200);
  assert.deepEqual(errors, []);
  await wall.context().close();
});

test('table signs decode to /live?table=N; an upload from such a page carries its table; the gallery filters by it and the wall shows the busiest tables', async () => {
  assert.equal((await admin.put('/admin/api/settings', { tables: 5 })).status, 200);
  const { page, errors } = await newPage(browser, { width: 900, height: 1200 });
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/qr');
  await page.getByTestId('qr-table-sign').first().waitFor();
  assert.equal(await page.getByTestId('qr-table-sign').count(), 5);
  const third = page.locator('[data-testid="qr-table-sign"][data-table="3"]');
  assert.match(await third.innerText(), /Table 3/);
  const code = third.locator('.qr-sign-code');
  await code.scrollIntoViewIfNeeded();
  await code.evaluate((img: HTMLImageElement) => img.decode());
  assert.equal(await decodeQrPng(await code.screenshot()), `${srv.url}/live?table=3`);

  const { page: phone } = await newPage(browser, { width: 360, height: 740 });
  await phone.goto(srv.url + '/live?table=3');
  await phone.getByTestId('live-table').waitFor();
  assert.equal(await phone.getByTestId('live-table').innerText(), 'Sharing from table 3');
  await phone.getByTestId('file-input').setInputFiles([sample('Pentax_K10D.jpg')]);
  await waitStatus(phone, 'Pentax_K10D.jpg', 'complete');
  const sent = (await adminPhotos(admin)).find((p) => p.original_filename === 'Pentax_K10D.jpg')!;
  assert.equal((await admin.post(`/admin/api/photos/${sent.id}/approve`)).status, 200);
  const listed = (await (await fetch(`${srv.url}/api/photos?table=3`)).json()) as { photos: { id: string; table: number }[] };
  assert.deepEqual(listed.photos.map((p) => [p.id, p.table]), [[sent.id, 3]]);

  // The gallery's filter offers the table, and shows only its photo.
  await phone.goto(srv.url + '/gallery');
  await phone.getByRole('button', { name: 'Table 3' }).click();
  await phone.waitForFunction(() => document.querySelectorAll('.gallery-grid:not([aria-busy]) li').length === 1);

  // The wall, now and then: the busiest tables (here every half second).
  const { page: wall } = await newPage(browser, { width: 1280, height: 720 });
  await wall.goto(srv.url + '/wall?interval=4000&tables=500');
  await wall.getByTestId('wall-tables').waitFor({ timeout: 10_000 });
  assert.match(await wall.getByTestId('wall-tables').innerText(), /The busiest tables[\s\S]*Table 3[\s\S]*1 photo/);
  await readableQr(wall);
  await screenshot(wall, 'wall-busiest-tables');
  assert.deepEqual(errors, []);
  await Promise.all([page.context().close(), phone.context().close(), wall.context().close()]);
});
