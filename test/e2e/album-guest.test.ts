import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import exifr from 'exifr';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { adminClient, type TestClient } from '../helpers/server.js';
import { galleryTiles } from './guest-helpers.js';
import { noise, sendAndProcess } from './album-helpers.js';

const PHONE = { width: 360, height: 740 };

/** Guests on a 360 px phone: hearts by touch and keyboard, Most loved, Highlights, the viewer's download and the ZIP. */
describe('guests keep the best photos in a browser', () => {
  const server = new ServerProcess();
  let browser: Browser;
  let admin: TestClient;
  const ids: Record<string, string> = {};

  before(async () => {
    [browser] = await Promise.all([launchBrowser(), server.start()]);
    admin = await adminClient(server.url);
    ids.gps = await sendAndProcess(server.url, sample('gps_DSCN0010.jpg'), 'gps_DSCN0010.jpg');
    for (const n of ['a', 'b', 'c']) ids[n] = await sendAndProcess(server.url, await noise(), `noise-${n}.jpg`);
    for (const id of Object.values(ids)) assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
    assert.equal((await admin.post(`/admin/api/photos/${ids.b}/highlight`, { highlighted: true })).status, 200);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  test('a heart shows at once, counts, is reached by keyboard, stays after a reload, and Most loved puts it first', async () => {
    const { page, context, errors } = await newPage(browser, PHONE);
    await page.goto(server.url + '/gallery');
    await galleryTiles(page).nth(3).waitFor();
    const tile = page.locator('.gallery-grid li').filter({ has: page.locator(`img[src*="${ids.c}"]`) });
    const heart = tile.getByRole('button', { name: /Love this photo/ });
    assert.equal(await heart.getAttribute('aria-label'), 'Love this photo (no hearts yet)');
    // By keyboard: focus the heart and press Space.
    await heart.focus();
    await page.keyboard.press('Space');
    await tile.getByRole('button', { name: 'Love this photo (1 heart)', pressed: true }).waitFor();
    const box = (await heart.boundingBox())!;
    assert.ok(box.width >= 44 && box.height >= 44, `a 44 px target (${box.width}×${box.height})`);
    assert.ok(box.x + box.width <= PHONE.width, 'inside a 360 px screen');
    await page.waitForFunction(async (id) => {
      const r = await (await fetch('/api/photos?limit=10')).json();
      return r.photos.find((p: { id: string }) => p.id === id)?.hearted === true;
    }, ids.c);
    await screenshot(page, 'album-gallery-hearts-360');
    await page.reload();
    await page.locator(`.gallery-grid li:has(img[src*="${ids.c}"]) button[aria-pressed="true"]`).waitFor();
    await page.getByRole('button', { name: 'Most loved' }).click();
    await page.waitForFunction((id) => document.querySelector('.gallery-grid li img')?.getAttribute('src')?.includes(id), ids.c);
    // Taken back in the viewer: the count goes down there and in the grid.
    await page.locator('.gallery-grid li').first().locator('.gallery-tile').click();
    const viewer = page.getByRole('dialog');
    await viewer.getByRole('button', { name: 'Love this photo (1 heart)', pressed: true }).click();
    await viewer.getByRole('button', { name: 'Love this photo (no hearts yet)', pressed: false }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('Highlights shows only the couple\'s choice', async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto(server.url + '/gallery');
    await page.getByRole('button', { name: 'Highlights' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.gallery-grid:not([aria-busy]) li').length === 1);
    assert.equal(await page.locator(`.gallery-grid li img[src*="${ids.b}"]`).count(), 1);
    await context.close();
  });

  test('the viewer\'s Download saves the photo under its own name without GPS; the gallery\'s ZIP is offered', async () => {
    const { page, context } = await newPage(browser, PHONE);
    await page.goto(server.url + '/gallery');
    await page.locator(`.gallery-grid li:has(img[src*="${ids.gps}"]) .gallery-tile`).click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('dialog').getByRole('link', { name: 'Download' }).click()]);
    assert.equal(download.suggestedFilename(), 'gps_DSCN0010.jpg');
    const saved = fs.readFileSync((await download.path())!);
    const original = await exifr.parse(sample('gps_DSCN0010.jpg'), { gps: true });
    assert.ok(original?.latitude, 'the fixture has a location');
    const got = await exifr.parse(saved, { gps: true });
    assert.ok(!got?.latitude, 'no location in the download');
    await page.keyboard.press('Escape');
    const zip = page.getByRole('link', { name: 'Download all (ZIP)' });
    assert.equal(await zip.getAttribute('href'), '/api/export.zip');
    await context.close();
  });

  test('with guest downloads off, neither Download nor the ZIP is offered', async () => {
    const s = await admin.get('/admin/api/settings');
    assert.equal((await admin.put('/admin/api/settings', { ...s.body.settings, guest_downloads: false })).status, 200);
    const { page, context } = await newPage(browser, PHONE);
    await page.goto(server.url + '/gallery');
    await galleryTiles(page).first().waitFor();
    assert.equal(await page.getByRole('link', { name: 'Download all (ZIP)' }).count(), 0);
    await galleryTiles(page).first().locator('.gallery-tile').click();
    await page.getByRole('dialog').getByRole('button', { name: /Love this photo/ }).waitFor();
    assert.equal(await page.getByRole('dialog').getByRole('link', { name: 'Download' }).count(), 0);
    await context.close();
  });
});
