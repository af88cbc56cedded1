// The README's pictures, made from the real site with sample data so they stay true:
//
//   npm run screenshots            (builds, then writes docs/images/*.webp)
//
// Starts its own server on a temporary data folder, uploads sample photos from test/fixtures as
// guests would, approves some, sets a cover photo, and photographs the home and upload pages on a
// phone, the gallery, the reception wall and the dashboard.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, ServerProcess } from '../test/helpers/browser.js';
import { sample } from '../test/helpers/samples.js';
import { ADMIN, tempDir } from '../test/helpers/server.js';
import { seed, settle } from './screens/seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README_IMAGES = path.join(ROOT, 'docs', 'images');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const GUESTS = [
  { file: 'Canon_40D.jpg', by: 'Anna' },
  { file: 'Nikon_D70.jpg', by: 'Tom' },
  { file: 'Pentax_K10D.jpg', by: 'Grandma Rose' },
  { file: 'Panasonic_DMC-FZ30.jpg', by: 'Anna' },
  { file: 'orientation_landscape_1.jpg', by: 'Priya' },
  { file: 'hdr_iphone_hdr_YES.jpg', by: 'Luis' },
  { file: 'mobile_jolla.jpg', by: 'Tom' },
];

/** A screenshot as a small WebP file. */
async function shot(page: Page, out: string, name: string): Promise<string> {
  await settle(page);
  const file = path.join(out, `${name}.webp`);
  await sharp(await page.screenshot()).webp({ quality: 76, effort: 5 }).toFile(file);
  return file;
}

async function setCover(base: string, cookie: string): Promise<void> {
  const fd = new FormData();
  fd.append('file', new Blob([fs.readFileSync(sample('Pentax_K10D.jpg'))], { type: 'image/jpeg' }), 'cover.jpg');
  const r = await fetch(`${base}/admin/api/settings/cover`, { method: 'POST', body: fd, headers: { cookie, origin: base } });
  if (r.status !== 201) throw new Error(`cover: ${r.status} ${await r.text()}`);
}

async function pages(browser: Browser, base: string, out: string): Promise<string[]> {
  const files: string[] = [];
  const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  let page = await phone.newPage();
  await page.goto(`${base}/`);
  await page.locator('.hero-names').waitFor();
  await page.locator('.hero-cover').waitFor();
  files.push(await shot(page, out, 'home-phone'));

  await page.goto(`${base}/live`);
  await page.locator('#uploader-name').fill('Anna');
  const work = tempDir('screens-');
  const photo = path.join(work, 'IMG_2041.jpg');
  fs.copyFileSync(sample('Fujifilm_FinePix_E500.jpg'), photo);
  await page.getByTestId('file-input').setInputFiles([photo]);
  await page.locator('[data-status="complete"]').first().waitFor({ timeout: 60_000 });
  files.push(await shot(page, out, 'upload-phone'));
  await phone.close();

  const desktop = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1 });
  page = await desktop.newPage();
  await page.goto(`${base}/gallery`);
  await page.locator('.gallery-grid:not([aria-busy]) li img').first().waitFor();
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.gallery-grid img')].every((i) => i.complete && i.naturalWidth > 0));
  files.push(await shot(page, out, 'gallery'));

  await page.goto(`${base}/wall?interval=600000`);
  await page.locator('.wall-media').first().waitFor();
  await page.waitForTimeout(1500); // the first photo's fade-in
  files.push(await shot(page, out, 'wall'));

  const r = await page.request.post(`${base}/admin/api/login`, { data: ADMIN });
  if (!r.ok()) throw new Error(`sign-in failed: ${r.status()}`);
  await page.goto(`${base}/admin/dashboard`);
  await page.locator('.stat-grid').first().waitFor();
  files.push(await shot(page, out, 'dashboard'));
  await desktop.close();
  return files;
}

/** Makes the README's pictures into `out`; returns the files written. */
export async function makeReadmeScreenshots(out = README_IMAGES): Promise<string[]> {
  fs.mkdirSync(out, { recursive: true });
  const [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(tempDir('screens-data-'), { COUPLE_NAMES: 'Emma & James' }).start()]);
  try {
    const { admin } = await seed(srv.url, GUESTS, 5);
    await setCover(srv.url, admin.cookieHeader());
    return await pages(browser, srv.url, out);
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await makeReadmeScreenshots();
  for (const f of files) console.log(`${path.relative(ROOT, f)}  ${Math.round(fs.statSync(f).size / 1024)} KB`);
}
