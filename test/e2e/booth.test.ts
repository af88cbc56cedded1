import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { FAKE_MEDIA, launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';

// The photo booth on a tablet, in Chromium with its fake camera.
let browser: Browser;
let srv: ServerProcess;
/** The tablet's browser: it keeps the booth's cookie. */
let tablet: BrowserContext;
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(FAKE_MEDIA), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const rows = (): any[] => {
  const db = new Database(path.join(srv.dataDir, 'wedding.db'), { readonly: true });
  try {
    return db.prepare('SELECT * FROM photos').all() as any[];
  } finally {
    db.close();
  }
};

test('a booth session: opened by a signed-in user, then a guest presses start, counts down 3-2-1 four times, and one composed picture is uploaded as "Photo booth" with a QR code opening it', async () => {
  const { context, page, errors } = await newPage(browser, { width: 1024, height: 768 });
  tablet = context;
  await page.goto(srv.url + '/booth');
  await page.getByTestId('booth-open').waitFor();
  // Signed in once, the tablet becomes the booth; the session is then dropped.
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/booth');
  await page.getByTestId('booth-open').click();
  await page.getByTestId('booth-start').waitFor();
  await context.clearCookies({ name: 'wedding.sid' });
  await page.reload();
  const start = page.getByTestId('booth-start');
  await start.waitFor();
  await page.waitForFunction(() => (document.querySelector('[data-testid=booth-viewfinder]') as HTMLVideoElement)?.videoWidth > 0);
  await start.click();
  await page.getByText('Photo 1 of 4').waitFor();
  assert.equal(await page.getByTestId('booth-count').innerText(), '3');
  await page.getByText('Photo 4 of 4').waitFor({ timeout: 20_000 });
  const qr = page.getByTestId('booth-qr');
  await qr.waitFor({ timeout: 30_000 });
  await screenshot(page, 'booth-qr');
  const url = (await qr.getAttribute('data-url'))!;
  assert.match(url, /\/b\/[A-Za-z0-9_-]{32}$/);
  const timings = await page.evaluate(() => window.__boothTimings!);
  assert.ok(timings.composeMs[0] < 2000, `composed in ${timings.composeMs[0]} ms`);
  assert.ok(timings.bytes[0] < 3 * 1024 * 1024, `${timings.bytes[0]} bytes`);

  const booth = rows().filter((r) => r.uploader_name === 'Photo booth');
  assert.equal(booth.length, 1, 'one picture per session');
  assert.equal(booth[0].is_visible, 0);
  // The QR code's address opens the picture on a phone, before approval, without any cookie.
  const res = await fetch(url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/jpeg');
  assert.equal(Number(res.headers.get('content-length')), booth[0].file_size);
  assert.deepEqual(errors, []);
});

test('the dashboard lists the booth and revokes it: the tablet is no longer a booth', async () => {
  const { page } = await newPage(browser, { width: 1280, height: 900 });
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/dashboard');
  const card = page.getByTestId('booths');
  await card.locator('li').first().waitFor();
  assert.match(await card.innerText(), /Opened by /);
  await card.getByRole('button', { name: /^Revoke the photo booth opened by / }).click();
  await card.getByText('Revoked').waitFor();
  const again = await tablet.newPage();
  await again.goto(srv.url + '/booth');
  await again.getByTestId('booth-open').waitFor();
  assert.equal(await again.getByTestId('booth-start').count(), 0);
});

test('the settings page sets the shots per guest and the frame; guests then see their shots left on /live', async () => {
  const { page } = await newPage(browser, { width: 1280, height: 900 });
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/settings');
  await page.getByLabel('Shots per guest').fill('7');
  await page.getByLabel('Frame for photos taken in the page and the booth').selectOption({ label: 'Film strip' });
  const saved = page.waitForResponse((r) => r.url().endsWith('/admin/api/settings') && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  assert.equal((await saved).status(), 200);
  const settings = await (await fetch(srv.url + '/api/settings')).json();
  assert.equal(settings.settings.shot_limit, 7);
  assert.equal(settings.settings.frame, 'film');
  const { page: guest } = await newPage(browser, { width: 360, height: 740 });
  await guest.goto(srv.url + '/live');
  assert.equal(await guest.getByTestId('shots-left').innerText(), '7 shots left');
});
