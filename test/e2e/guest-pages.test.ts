import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';

let browser: Browser;
let srv: ServerProcess;
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const body = (page: Page) => page.locator('body').innerText();

async function footerChecks(page: Page) {
  const footer = page.locator('footer');
  // The names arrive with GET /api/settings; until then the footer shows a placeholder.
  await footer.getByText("Made with care for Emma and James's wedding").waitFor({ timeout: 10_000 });
  assert.match(await footer.innerText(), /Made with care for Emma and James's wedding/);
  assert.match(await footer.innerText(), new RegExp(String(new Date().getFullYear())));
  assert.equal(await footer.getByRole('link', { name: 'Admin' }).getAttribute('href'), '/admin/login');
}

test('home: names, welcome, the three schedule items, photo sharing, thank you and footer', async () => {
  const { page, errors } = await newPage(browser);
  const scripts: { url: string; encoding?: string }[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('.js')) scripts.push({ url: r.url(), encoding: r.headers()['content-encoding'] });
  });
  await page.goto(srv.url + '/');
  await page.getByRole('heading', { level: 1, name: 'Emma and James' }).waitFor();
  // Every script came compressed (Chromium offers brotli over HTTPS and to localhost, gzip always).
  assert.ok(scripts.length >= 1);
  for (const s of scripts) assert.match(s.encoding ?? 'none', /^(br|gzip)$/, s.url);
  const text = await body(page);
  assert.match(text, /We are so happy you are here/);
  const cards = page.locator('.schedule-card');
  assert.equal(await cards.count(), 3);
  const expected = [
    ['Welcome Party', 'Friday, 6 June 2025', '7:00-9:00 PM', 'Maryland', 'Cocktail attire', 'All invited guests welcome'],
    ['Ceremony & Reception', 'Saturday, 7 June 2025', '4:30-11:00 PM', 'Manor', 'invitation', ''],
    ['Goodbye Brunch', 'Sunday, 8 June 2025', '10:00 AM-12:00 PM', 'Manor', 'Casual', 'All invited guests welcome'],
  ];
  for (let i = 0; i < 3; i++) {
    const t = await cards.nth(i).innerText();
    for (const part of expected[i]) assert.ok(t.includes(part), `schedule card ${i} has "${part}": ${t}`);
  }
  assert.match(text, /QR code at your table or in your welcome gift/);
  assert.equal(await page.getByRole('link', { name: 'View Photo Gallery' }).getAttribute('href'), '/gallery');
  assert.equal(await page.getByRole('link', { name: 'Upload Photos & Videos' }).getAttribute('href'), '/live');
  assert.ok(await page.getByRole('heading', { name: 'Thank You' }).isVisible());
  assert.match(text, /Thank you for traveling near and far/);
  await footerChecks(page);
  await screenshot(page, 'guest-home');
  await page.getByRole('link', { name: 'View Photo Gallery' }).click();
  await page.waitForURL('**/gallery');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('/live: header, upload box, gallery link, How to Upload, the 2GB claim; no insights at 0 photos', async () => {
  const { page, errors } = await newPage(browser);
  await page.goto(srv.url + '/live');
  await page.getByRole('heading', { level: 1, name: 'Wedding Photo Collection' }).waitFor();
  const text = await body(page);
  assert.match(text, /Drag and drop photos and videos here/);
  assert.ok(await page.getByRole('button', { name: 'Select Photos & Videos' }).isVisible());
  const input = page.getByTestId('file-input');
  assert.equal(await input.getAttribute('multiple'), '');
  const accept = (await input.getAttribute('accept')) ?? '';
  for (const t of ['image/jpeg', '.jpg', '.jpeg', '.png', '.gif', '.webp', '.mp4', '.mov', '.avi', 'video/quicktime']) assert.ok(accept.includes(t), `accepts ${t}`);
  assert.equal(await page.getByRole('link', { name: 'View Photo Gallery' }).getAttribute('href'), '/gallery');
  const steps = await page.locator('.how-to li').allInnerTexts();
  assert.equal(steps.length, 4);
  assert.match(steps[0], /phone or computer/);
  assert.match(steps[1], /Select the photos and videos/);
  assert.match(steps[2], /directly.*no apps/);
  assert.match(steps[3], /private until .*approves them for the gallery/);
  assert.match(text, /up to 2GB each/);
  assert.equal(await page.locator('.insights').count(), 0, 'hidden at total_photos 0');
  await footerChecks(page);
  await screenshot(page, 'guest-live-empty');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('/gallery when empty: title, count, Refresh, empty state with a way to /live', async () => {
  const { page, errors } = await newPage(browser);
  await page.goto(srv.url + '/gallery');
  await page.getByRole('heading', { name: 'No Photos or Videos Yet' }).waitFor();
  const text = await body(page);
  assert.match(text, /Wedding Photo & Video Gallery/);
  assert.match(text, /0 photo\(s\) and video\(s\) shared by our guests/);
  assert.match(text, /Be the first to share a memory from our special day!/);
  assert.ok(await page.getByRole('button', { name: 'Refresh' }).isVisible());
  assert.equal(await page.getByRole('link', { name: 'Back to Upload' }).getAttribute('href'), '/live');
  await footerChecks(page);
  await screenshot(page, 'guest-gallery-empty');
  await page.getByRole('link', { name: 'Upload Photos & Videos' }).click();
  await page.waitForURL('**/live');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('an unknown path redirects to /', async () => {
  const { page } = await newPage(browser);
  await page.goto(srv.url + '/no/such/page');
  await page.waitForURL(srv.url + '/');
  await page.getByRole('heading', { level: 1, name: 'Emma and James' }).waitFor();
  await page.context().close();
});

test('uploads switched off: the SPEC toast and nothing is sent', async () => {
  const admin = new TestClient(srv.url);
  await admin.login();
  assert.equal((await admin.put('/admin/api/settings', { uploads_enabled: false })).status, 200);
  try {
    const { page } = await newPage(browser);
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(r.url()));
    await page.goto(srv.url + '/live');
    await page.getByRole('heading', { name: 'Wedding Photo Collection' }).waitFor();
    await page.waitForFunction(() => document.querySelector('footer')?.textContent?.includes('Emma'));
    await page.getByTestId('file-input').setInputFiles(sample('Canon_40D.jpg'));
    const toast = page.locator('.toast', { hasText: 'Uploads not available' });
    await toast.waitFor();
    assert.match(await toast.innerText(), /Photo uploads will be available on the wedding day!/);
    assert.equal(await page.locator('.upload-item').count(), 0);
    assert.deepEqual(posts, []);
    await screenshot(page, 'guest-uploads-off');
    await page.context().close();
  } finally {
    await admin.put('/admin/api/settings', { uploads_enabled: true });
  }
});

test('a file type the drop zone does not accept gets its default message; in Spanish, a Spanish sentence around the list of types', async () => {
  const { page } = await newPage(browser);
  await page.goto(srv.url + '/live');
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  const toast = page.locator('.toast', { hasText: 'notes.txt' });
  await toast.waitFor();
  assert.match(await toast.innerText(), /File type must be one of image\/jpeg/);
  assert.equal(await page.locator('.upload-item').count(), 0);
  // In another language the whole sentence is that language's: only the list of types is technical.
  await page.goto(srv.url + '/live?lang=es');
  await page.getByTestId('file-input').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  const spanish = await page.locator('.toast', { hasText: 'notas.txt' }).innerText();
  assert.match(spanish, /notas\.txt: El archivo debe ser de uno de estos tipos: image\/jpeg, \.jpeg, \.jpg, image\/png/);
  assert.doesNotMatch(spanish, /one of/);
  await page.context().close();
});

test('phone width (390x844): no horizontal scrolling on the guest pages', async () => {
  const { page } = await newPage(browser, { width: 390, height: 844 });
  for (const [path, name] of [['/', 'home'], ['/live', 'live'], ['/gallery', 'gallery']]) {
    await page.goto(srv.url + path);
    await page.locator('footer').waitFor();
    await page.waitForFunction(() => document.querySelector('footer')?.textContent?.includes('Emma'));
    if (path === '/gallery') await page.getByRole('heading', { name: 'No Photos or Videos Yet' }).waitFor();
    const [scroll, inner] = await page.evaluate(() => [document.scrollingElement!.scrollWidth, window.innerWidth]);
    assert.ok(scroll <= inner, `${path}: scrollWidth ${scroll} <= innerWidth ${inner}`);
    await screenshot(page, `guest-phone-${name}`);
  }
  await page.context().close();
});
