import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { newPage, screenshot, ServerProcess, startBrowserAndServer, stopBrowserAndServer } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { adminClient, type TestClient } from '../helpers/server.js';
import { decodeQrPng, guestUpload, waitProcessed } from './wall-helpers.js';

let browser: Browser;
let srv: ServerProcess;
before(async () => {
  [browser, srv] = await startBrowserAndServer();
});
after(() => stopBrowserAndServer(browser, srv));

/** Waits for the crossfade to end, so a screenshot shows the photo rather than a half-faded frame. */
const settled = (page: Page) => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));

const admin = (): Promise<TestClient> => adminClient(srv.url);

test('the wall shows an approved photo live, drops it when hidden, and carries on after a server restart', async () => {
  const first = await guestUpload(srv.url, sample('Canon_40D.jpg'));
  await waitProcessed(srv.url, first);

  const { page, errors } = await newPage(browser, { width: 1280, height: 720 });
  await page.goto(srv.url + '/wall');
  // Nothing is visible yet: the empty wall, with the share corner pointing at /live.
  await page.locator('.wall-empty').waitFor();
  assert.equal(await page.locator('header, footer').count(), 0);
  assert.match(await page.locator('.wall-share').innerText(), new RegExp(`Share your photos:\\s*${srv.url.replace(/\./g, '\\.')}/live`));
  await page.locator('.wall-qr').evaluate((img: HTMLImageElement) => img.decode());
  assert.equal(await decodeQrPng(await page.locator('.wall-qr').screenshot()), `${srv.url}/live`);
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('.wall')!).backgroundColor), 'rgb(0, 0, 0)');

  let a = await admin();
  assert.equal((await a.post(`/admin/api/photos/${first}/approve`)).status, 200);
  const shown = page.locator(`.wall-slide:not(.leaving) img.wall-media[src*="${first}"]`);
  await shown.waitFor({ timeout: 5000 });
  assert.ok(await shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the photo drew');
  await settled(page);
  await screenshot(page, 'wall-showing-approved-photo');

  assert.equal((await a.post(`/admin/api/photos/${first}/hide`)).status, 200);
  await page.locator(`[data-photo-id="${first}"]`).waitFor({ state: 'detached', timeout: 5000 });
  await page.locator('.wall-empty').waitFor({ timeout: 5000 });
  await screenshot(page, 'wall-after-hide');

  // The server goes away and comes back on the same port and data; the wall reconnects by itself.
  await srv.stop('SIGTERM');
  await srv.start();
  a = await admin();
  const second = await guestUpload(srv.url, sample('Nikon_D70.jpg'));
  await waitProcessed(srv.url, second);
  // Approved while the wall may still be reconnecting: the replay after Last-Event-ID brings it.
  assert.equal((await a.post(`/admin/api/photos/${second}/approve`)).status, 200);
  await page.locator(`.wall-slide:not(.leaving) img.wall-media[src*="${second}"]`).waitFor({ timeout: 15_000 });
  await settled(page);
  await screenshot(page, 'wall-after-restart');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a photo approved while another shows comes up next, before the rotation continues', async () => {
  const a = await admin();
  const ids: string[] = [];
  for (const f of ['Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg']) {
    const id = await guestUpload(srv.url, sample(f));
    await waitProcessed(srv.url, id);
    ids.push(id);
  }
  await a.post(`/admin/api/photos/${ids[0]}/approve`);
  await a.post(`/admin/api/photos/${ids[1]}/approve`);
  const { page, errors } = await newPage(browser, { width: 1024, height: 640 });
  // Record the order of slides as the page shows them.
  await page.addInitScript(() => {
    (window as unknown as { shownIds: string[] }).shownIds = [];
    new MutationObserver((records) => {
      const list = (window as unknown as { shownIds: string[] }).shownIds;
      for (const r of records)
        for (const n of r.addedNodes) {
          if (!(n instanceof HTMLElement)) continue;
          const slides = n.classList.contains('wall-slide') ? [n] : [...n.querySelectorAll<HTMLElement>('.wall-slide')];
          for (const el of slides) list.push(el.dataset.photoId!);
        }
    }).observe(document, { childList: true, subtree: true });
  });
  // Slides of 3 s leave room for noticing the first one and approving on a busy machine.
  await page.goto(srv.url + '/wall?interval=3000');
  await page.locator('.wall-slide').first().waitFor();
  await a.post(`/admin/api/photos/${ids[2]}/approve`);
  await page.waitForFunction((id) => (window as unknown as { shownIds: string[] }).shownIds.includes(id), ids[2], { timeout: 12_000 });
  const order = await page.evaluate(() => (window as unknown as { shownIds: string[] }).shownIds);
  const at = order.indexOf(ids[2]);
  // It came straight after whatever was up when it was approved (at most one more slide could have started meanwhile).
  assert.ok(at >= 1 && at <= 2, `new photo at position ${at} of ${JSON.stringify(order)}`);
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('when a proxy answers the reconnect with an error page, the wall makes a new stream and catches up', async () => {
  const { page, errors } = await newPage(browser, { width: 1024, height: 640 });
  let blocked = false;
  let refused = 0;
  // A tunnel or reverse proxy answers 502 while the server restarts: EventSource gives up for good on that.
  await page.route('**/api/events*', (route) => {
    if (!blocked) return route.continue();
    refused++;
    return route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>Bad gateway</h1>' });
  });
  await page.goto(srv.url + '/wall?interval=1000');
  await page.locator('.wall-slide').first().waitFor();
  blocked = true;
  await srv.stop('SIGTERM');
  await srv.start();
  const deadline = Date.now() + 10_000;
  while (refused === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.ok(refused > 0, 'the browser tried to reconnect and was refused');
  blocked = false;

  const late = await guestUpload(srv.url, sample('orientation_landscape_6.jpg'));
  await waitProcessed(srv.url, late);
  assert.equal((await (await admin()).post(`/admin/api/photos/${late}/approve`)).status, 200);
  await page.locator(`.wall-slide img.wall-media[src*="${late}"]`).waitFor({ timeout: 15_000 });
  const tries = refused;
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(refused, tries, 'no reconnect storm');
  assert.deepEqual(errors, []);
  await page.context().close();
});
