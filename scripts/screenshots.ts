// The README's pictures, made from the real site with sample data so they stay true:
//
//   npm run screenshots            (builds, then writes docs/images/*.webp)
//
// Starts its own server on a temporary data folder, uploads party photos (scripts/screens/photos,
// source and licence in its README) as guests would, approves most, sets a cover photo, and
// photographs the home and upload pages on a phone, the gallery, the reception wall (one photo,
// and the mosaic on a 1920x1080 screen), the dashboard, and the couple's remote on a phone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { launchBrowser, ServerProcess } from '../test/helpers/browser.js';
import { decodeQrPng } from '../test/e2e/wall-helpers.js';
import { ADMIN, tempDir, type TestClient } from '../test/helpers/server.js';
import { seed, settle, type GuestPhoto, type Moments } from './screens/seed.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const README_IMAGES = path.join(ROOT, 'docs', 'images');
const PHOTOS = path.join(ROOT, 'scripts', 'screens', 'photos');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const TV = { width: 1920, height: 1080 };

const photo = (file: string) => path.join(PHOTOS, file);
/**
 * In the order the guests send them (the last one waits for approval). Their dates taken (EXIF)
 * fall in the first two schedule items, the welcome party and the wedding day.
 */
const GUESTS: GuestPhoto[] = [
  { file: photo('pexels-paula-rodriguez-2161068380-37194849.jpg'), by: 'Grandma Rose', as: 'IMG_0412.jpg' },
  { file: photo('pexels-melike-benli-9041810.jpg'), by: 'Anna', as: 'IMG_2117.jpg' },
  { file: photo('pexels-polina-tankilevitch-5848780.jpg'), by: 'Priya', as: 'IMG_2093.jpg' },
  { file: photo('pexels-bulat843-1243575272-34079489.jpg'), by: 'Luis', as: 'PXL_20250607_221031.jpg' },
  { file: photo('pexels-anthonyshkraba-production-8910427.jpg'), by: 'Luis', as: 'PXL_20250606_201533.jpg' },
  { file: photo('kelsey-chance-575541-unsplash.jpg'), by: 'Tom', as: 'DSC_0871.jpg' },
  { file: photo('pexels-chris-wade-ntezicimpa-564856410-20221662.jpg'), by: 'Anna', as: 'IMG_2118.jpg' },
  { file: photo('pexels-antoni-shkraba-7507067.jpg'), by: 'Priya', as: 'IMG_2150.jpg' },
  { file: photo('pexels-jonathan-nenemann-13434458.jpg'), by: 'Luis', as: 'PXL_20250607_221027.jpg' },
  { file: photo('pexels-jonathan-nenemann-13434429.jpg'), by: 'Tom', as: 'DSC_0933.jpg' },
];
/** The one Anna sends on the upload page. */
const ON_THE_PAGE = photo('pexels-ekoagalarov-28815676.jpg');
const COVER = photo('pexels-melike-benli-9041810.jpg');
const MOMENTS: Moments = {
  zone: 'America/New_York',
  windows: [
    { starts_at: '2025-06-06T19:00:00-04:00', ends_at: '2025-06-06T21:00:00-04:00' },
    { starts_at: '2025-06-07T16:30:00-04:00', ends_at: '2025-06-07T23:00:00-04:00' },
  ],
};

/** A screenshot as a small WebP file. */
async function shot(page: Page, out: string, name: string): Promise<string> {
  await settle(page);
  const file = path.join(out, `${name}.webp`);
  await sharp(await page.screenshot()).webp({ quality: 76, effort: 5 }).toFile(file);
  return file;
}

async function setCover(base: string, cookie: string): Promise<void> {
  const fd = new FormData();
  fd.append('file', new Blob([fs.readFileSync(COVER)], { type: 'image/jpeg' }), 'cover.jpg');
  const r = await fetch(`${base}/admin/api/settings/cover`, { method: 'POST', body: fd, headers: { cookie, origin: base } });
  if (r.status !== 201) throw new Error(`cover: ${r.status} ${await r.text()}`);
}

/** The couple approves what is still waiting (the wall shows approved photos only). */
async function approveAll(admin: TestClient): Promise<void> {
  const { body } = await admin.get('/admin/api/photos?pending=true&per_page=100');
  for (const p of body.photos as { id: string }[]) await admin.post(`/admin/api/photos/${p.id}/approve`);
}

/** Every picture in view has loaded. */
const imagesLoaded = (page: Page, selector: string) =>
  page.waitForFunction(
    (sel) => [...document.querySelectorAll<HTMLImageElement>(sel)].filter((i) => i.getBoundingClientRect().top < innerHeight).every((i) => i.complete && i.naturalWidth > 0),
    selector,
  );

async function guestPages(browser: Browser, base: string, out: string): Promise<string[]> {
  const files: string[] = [];
  const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  const page = await phone.newPage();
  await page.goto(`${base}/`);
  await page.locator('.hero-names').waitFor();
  await page.locator('.hero-cover').waitFor();
  files.push(await shot(page, out, 'home-phone'));

  await page.goto(`${base}/live`);
  await page.locator('#uploader-name').fill('Anna');
  const file = path.join(tempDir('screens-'), 'IMG_2041.jpg');
  fs.copyFileSync(ON_THE_PAGE, file);
  await page.getByTestId('file-input').setInputFiles([file]);
  await page.locator('[data-status="complete"]').first().waitFor({ timeout: 60_000 });
  files.push(await shot(page, out, 'upload-phone'));
  await phone.close();
  return files;
}

async function desktopPages(browser: Browser, base: string, out: string): Promise<string[]> {
  const files: string[] = [];
  const desktop = await browser.newContext({ viewport: DESKTOP, deviceScaleFactor: 1 });
  const page = await desktop.newPage();
  await page.goto(`${base}/gallery`);
  await page.locator('.gallery-grid:not([aria-busy]) li img').first().waitFor();
  await imagesLoaded(page, '.gallery-grid img');
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

/** The wall in the mosaic layout on a TV, and, while it runs, the couple's remote on a phone. */
async function wallAndRemote(browser: Browser, base: string, admin: TestClient, out: string): Promise<string[]> {
  const files: string[] = [];
  await approveAll(admin);
  const put = await admin.put('/admin/api/wall', { layout: 'mosaic' });
  if (put.status !== 200) throw new Error(`wall layout: ${put.status} ${JSON.stringify(put.body)}`);
  const tv = await browser.newContext({ viewport: TV, deviceScaleFactor: 1 });
  const wall = await tv.newPage();
  await wall.goto(`${base}/wall?interval=600000`);
  await wall.locator('.wall-grid .wall-tile-10 .wall-tile-media').waitFor();
  await imagesLoaded(wall, '.wall-grid img');
  await wall.waitForTimeout(1500); // the last tile's fade-in
  files.push(await shot(wall, out, 'wall-mosaic'));
  const qr = await decodeQrPng(await wall.screenshot());
  if (!qr?.endsWith('/live')) throw new Error(`the QR code on the mosaic does not read as the upload page: ${qr}`);

  const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
  const page = await phone.newPage();
  const r = await page.request.post(`${base}/admin/api/login`, { data: ADMIN });
  if (!r.ok()) throw new Error(`sign-in failed: ${r.status()}`);
  await page.goto(`${base}/admin/remote`);
  await page.locator('.remote-photo img').first().waitFor();
  await page.getByTestId('walls-status').waitFor();
  await imagesLoaded(page, '.remote-photo img');
  files.push(await shot(page, out, 'remote-phone'));
  await phone.close();
  await tv.close();
  return files;
}

/** Makes the README's pictures into `out`; returns the files written. */
export async function makeReadmeScreenshots(out = README_IMAGES): Promise<string[]> {
  fs.mkdirSync(out, { recursive: true });
  const [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(tempDir('screens-data-'), { COUPLE_NAMES: 'Emma & James' }).start()]);
  try {
    const { admin } = await seed(srv.url, GUESTS, GUESTS.length - 1, MOMENTS);
    await setCover(srv.url, admin.cookieHeader());
    return [
      ...(await guestPages(browser, srv.url, out)),
      ...(await desktopPages(browser, srv.url, out)),
      ...(await wallAndRemote(browser, srv.url, admin, out)),
    ];
  } finally {
    await browser.close();
    await srv.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const files = await makeReadmeScreenshots();
  for (const f of files) console.log(`${path.relative(ROOT, f)}  ${Math.round(fs.statSync(f).size / 1024)} KB`);
}
