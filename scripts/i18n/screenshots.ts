// Screenshots of every page in the given languages, for translators to read their texts where
// guests and the couple will see them, and a list of what sticks out of a phone's width.
//
//   npm run build && node --import tsx --import ./scripts/i18n/register.mjs scripts/i18n/screenshots.ts zh ja [--width=360]
//
// With no language, every shipped one. Writes test-artifacts/screens/<lang>/<nn-page>.png and
// prints, per page, each element wider than the screen (a button or label that overflows).
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, ServerProcess } from '../../test/helpers/browser.js';
import { sample } from '../../test/helpers/samples.js';
import { ADMIN, tempDir } from '../../test/helpers/server.js';
import { seed, settle } from '../screens/seed.js';
import { readCatalogues } from './catalogues.mjs';

const args = process.argv.slice(2);
const width = Number(args.find((a) => a.startsWith('--width='))?.slice(8) ?? 390);
let langs = args.filter((a) => !a.startsWith('--'));
if (!langs.length) langs = (await readCatalogues()).map((c) => c.lang);

/** Elements (not screen-reader-only) that reach past the screen's edges, and whether the page scrolls sideways. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const w = document.documentElement.clientWidth;
    const out = [...document.querySelectorAll('body *')]
      .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only'))
      .map((el) => ({ el, r: el.getBoundingClientRect() }))
      .filter(({ r }) => r.width > 0 && (r.left < -1 || r.right > w + 1))
      .map(({ el, r }) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(r.left)}..${Math.round(r.right)}`);
    if (document.documentElement.scrollWidth > w) out.unshift(`page scrolls sideways: ${document.documentElement.scrollWidth}px in ${w}px`);
    return out;
  });
}

async function shoot(page: Page, dir: string, name: string): Promise<void> {
  await settle(page);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
  const out = await overflow(page);
  console.log(`${path.basename(dir)} ${name}: ${out.length ? 'OVERFLOW\n  ' + out.join('\n  ') : 'fits'}`);
}

/** Two approved photos from a named guest and one waiting for approval. */
const seedPhotos = (base: string) => seed(base, ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'].map((file) => ({ file, by: 'Anna' })), 2);

async function guestPages(browser: Browser, base: string, lang: string, dir: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${base}/?lang=${lang}`);
  await page.locator('.hero-names').waitFor();
  await shoot(page, dir, '01-home');

  // The upload page with a file on its way, one refused (the notice), and "My uploads".
  await page.goto(`${base}/live?lang=${lang}`);
  await page.locator('#uploader-name').fill('Anna');
  const work = tempDir('screens-');
  const photo = path.join(work, 'IMG_2041.jpg');
  const note = path.join(work, 'notes.txt');
  fs.copyFileSync(sample('Fujifilm_FinePix_E500.jpg'), photo);
  fs.writeFileSync(note, 'not a photo');
  await page.getByTestId('file-input').setInputFiles([photo, note]);
  await page.locator('.upload-item').first().waitFor();
  await shoot(page, dir, '02-live-uploading');
  await page.locator('[data-status="complete"]').first().waitFor({ timeout: 60_000 }).catch(() => undefined);
  await shoot(page, dir, '03-live-done');

  await page.goto(`${base}/gallery?lang=${lang}`);
  await page.locator('.gallery-grid:not([aria-busy]) li').first().waitFor();
  await shoot(page, dir, '04-gallery');
  await page.locator('.gallery-tile').first().click();
  await page.locator('.viewer img').waitFor();
  await shoot(page, dir, '05-viewer');
  await context.close();
}

async function adminPages(browser: Browser, base: string, lang: string, dir: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${base}/admin/login?lang=${lang}`);
  await page.locator('form').waitFor();
  await shoot(page, dir, '10-admin-login');
  const r = await page.request.post(`${base}/admin/api/login`, { data: ADMIN });
  if (!r.ok()) throw new Error(`sign-in failed: ${r.status()}`);
  for (const [name, p, ready] of [
    ['11-admin-dashboard', 'dashboard', '.stat-grid'],
    ['12-admin-photos', 'photos', '[data-testid="photo-card"]'],
    ['13-admin-queue', 'photos', '[data-testid="photo-card"]'],
    ['14-admin-settings', 'settings', 'form'],
    ['15-admin-users', 'users', '.users-page h1'],
    ['16-admin-qr', 'qr', '[data-testid="qr-sign"]'],
  ] as const) {
    await page.goto(`${base}/admin/${p}?lang=${lang}`);
    await page.locator(ready).first().waitFor({ timeout: 30_000 });
    if (name === '13-admin-queue') await page.locator('.mode-switch button').nth(1).click();
    await shoot(page, dir, name);
  }
  await context.close();
}

const browser = await launchBrowser();
const srv = await new ServerProcess().start();
try {
  await seedPhotos(srv.url);
  for (const lang of langs) {
    const dir = path.join(ARTIFACTS, 'screens', lang);
    fs.mkdirSync(dir, { recursive: true });
    await guestPages(browser, srv.url, lang, dir);
    await adminPages(browser, srv.url, lang, dir);
  }
} finally {
  await browser.close();
  await srv.stop();
}
console.log(`screenshots in ${path.join(ARTIFACTS, 'screens')}`);
