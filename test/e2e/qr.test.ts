import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { decodeQrPng } from './wall-helpers.js';

const PUBLIC_URL = 'https://our-wedding.example';
let browser: Browser;
let srv: ServerProcess;
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { PUBLIC_URL, COUPLE_NAMES: 'Anna & Ben' }).start()]);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('a guest without a session is sent to the login page', async () => {
  const { page } = await newPage(browser);
  await page.goto(srv.url + '/admin/qr');
  await page.waitForURL('**/admin/login');
  await page.context().close();
});

test('the QR sign shows the names, the instruction and the /live address, and its code scans to PUBLIC_URL/live', async () => {
  const { page, errors } = await newPage(browser, { width: 1100, height: 1400 });
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/qr');
  const sign = page.locator('.qr-sign');
  await sign.waitFor();
  await page.locator('.qr-sign-code').evaluate((img: HTMLImageElement) => img.decode());
  await sign.getByText('Anna and Ben').waitFor();
  assert.match(await sign.innerText(), /Scan to share your photos and videos/);
  // The page shows its own address until /api/public-url answers.
  await sign.getByText(`${PUBLIC_URL}/live`, { exact: true }).waitFor();
  assert.equal(await page.locator('.qr-sign-url').innerText(), `${PUBLIC_URL}/live`);
  assert.ok(await page.getByRole('button', { name: 'Print' }).isVisible());

  await screenshot(page, 'qr-sign');
  assert.equal(await decodeQrPng(await page.screenshot({ fullPage: true })), `${PUBLIC_URL}/live`);

  // Printed: the code is at least 12 cm wide and centred; navigation and buttons are not on the sheet.
  await page.emulateMedia({ media: 'print' });
  const box = await page.locator('.qr-sign-code').boundingBox();
  const cm = 96 / 2.54;
  assert.ok(box && box.width >= 12 * cm, `QR printed ${box && (box.width / cm).toFixed(1)} cm wide`);
  const pageWidth = await page.evaluate(() => document.documentElement.clientWidth);
  assert.ok(Math.abs(box!.x + box!.width / 2 - pageWidth / 2) < 2, 'centred');
  const hidden = await page.evaluate(() =>
    [...document.querySelectorAll('header, nav, footer, .qr-sign button')].map((el) =>
      el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) ? el.outerHTML.slice(0, 120) : true,
    ),
  );
  assert.ok(hidden.length >= 2 && hidden.every((h) => h === true), `hidden when printed: ${JSON.stringify(hidden)}`);
  assert.equal(await decodeQrPng(await page.screenshot({ fullPage: true })), `${PUBLIC_URL}/live`);
  await screenshot(page, 'qr-sign-print');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a Spanish QR sign: Spanish words on the sheet, and its code opens PUBLIC_URL/live?lang=es', async () => {
  const { page, errors } = await newPage(browser, { width: 1100, height: 1400 });
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/qr');
  const sign = page.locator('.qr-sign');
  await sign.waitFor();
  await page.getByLabel('Language of the sign').selectOption('es');
  await sign.getByText('Escanea el código y comparte tus fotos y videos de nuestra boda').waitFor();
  await sign.getByText('Anna y Ben', { exact: true }).waitFor();
  assert.equal(await sign.getAttribute('lang'), 'es');
  assert.doesNotMatch(await sign.innerText(), /Scan to share| and /, 'no English left on the sign');
  await sign.getByText(`${PUBLIC_URL}/live?lang=es`, { exact: true }).waitFor();
  assert.equal(await page.locator('.qr-sign-code').getAttribute('alt'), `Código QR de ${PUBLIC_URL}/live?lang=es`);
  // The panel around the sign stays in the admin's language.
  assert.ok(await page.getByRole('button', { name: 'Print' }).isVisible());
  await page.locator('.qr-sign-code').evaluate((img: HTMLImageElement) => img.decode());
  await page.waitForFunction(() => (document.querySelector('.qr-sign-code') as HTMLImageElement).currentSrc.includes('lang=es'));
  await page.emulateMedia({ media: 'print' });
  assert.equal(await decodeQrPng(await page.screenshot({ fullPage: true })), `${PUBLIC_URL}/live?lang=es`);
  await screenshot(page, 'qr-sign-es');
  assert.deepEqual(errors, []);
  await page.context().close();
});
