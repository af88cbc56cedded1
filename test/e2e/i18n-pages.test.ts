import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { readCatalogues } from '../../scripts/i18n/catalogues.mjs';
import { launchBrowser, newPage, screenshot, ServerProcess } from '../helpers/browser.js';
import { buildWithLanguages } from '../helpers/i18n-build.js';
import { tempDir } from '../helpers/temp.js';
import { galleryTiles, row } from './guest-helpers.js';
import { guestUpload } from './wall-helpers.js';
import { adminClient } from '../helpers/server.js';
import { sample } from '../helpers/samples.js';

/**
 * The pages in a real browser in every language of a build with the real catalogues plus pseudo
 * German (ltr) and Arabic (rtl) where those are missing: the switcher, no English first, no English
 * left, right to left at 360 px.
 */
let built: ReturnType<typeof buildWithLanguages>;
let browser: Browser;
let srv: ServerProcess;
let codes: { code: string; dir: string }[] = [];
/** English sentences of the upload page's texts (several words, no placeholder): none may show in another language. */
let liveEnglish: string[] = [];

before(async () => {
  built = buildWithLanguages();
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { CLIENT_DIR: built.clientDir }, 0, built.entry).start()]);
  const cats = await readCatalogues(path.join(built.dir, 'locales'));
  codes = cats.map((c) => ({ code: c.lang, dir: c.lang === 'ar' || c.lang === 'he' ? 'rtl' : 'ltr' }));
  const en = cats.find((c) => c.lang === 'en')!;
  liveEnglish = en.entries
    .filter((e) => /^(live|challenges|upload\.(box|name|mine)|app\.footer)\./.test(e.key) && !e.text.includes('{') && e.text.split(' ').length >= 3)
    .map((e) => e.text);
  // Photos for the gallery.
  const admin = await adminClient(srv.url);
  // Photo challenges, so /live shows their picker (and its texts) in every language.
  const challenges = [{ title: 'A photo with the oldest guest', description: 'Whoever has the most birthdays behind them.' }, { title: 'The first dance' }];
  assert.equal((await admin.put('/admin/api/settings', { challenges })).status, 200);
  for (const f of ['Canon_40D.jpg', 'Nikon_D70.jpg']) await admin.post(`/admin/api/photos/${await guestUpload(srv.url, sample(f))}/approve`);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
  built?.remove();
});

const others = () => codes.filter((c) => c.code !== 'en');

/** Records the first text the page's heading ever shows, before anything can change it. */
async function firstHeading(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { firstH1?: string };
    new MutationObserver(() => {
      const h = document.querySelector('h1');
      if (h && w.firstH1 === undefined && h.textContent) w.firstH1 = h.textContent;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

test('no English on /live in another language: first paint, every text, the switcher names itself', async () => {
  assert.ok(liveEnglish.length >= 10, `the page's English sentences: ${liveEnglish.length}`);
  for (const { code } of others()) {
    const { page, errors } = await newPage(browser, { width: 390, height: 844 });
    await firstHeading(page);
    await page.goto(`${srv.url}/live?lang=${code}`);
    await page.locator('h1').waitFor();
    await page.locator('.challenges-card').waitFor();
    const text = await page.locator('body').innerText();
    const heading = await page.evaluate(() => (window as unknown as { firstH1?: string }).firstH1);
    assert.equal(heading, await page.locator('h1').innerText(), `${code}: the first heading shown is already this language's`);
    for (const sentence of liveEnglish) assert.ok(!text.includes(sentence), `${code}: English left on /live: "${sentence}"`);
    assert.equal(await page.locator('html').getAttribute('lang'), code);
    // A refused file: the drop zone's reason is the language's sentence around the list of types.
    await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    const refusal = await page.locator('.toast', { hasText: 'notes.txt' }).innerText();
    assert.match(refusal, /image\/jpeg/, `${code}: the accepted types are listed`);
    assert.doesNotMatch(refusal, /File type|one of/, `${code}: English left in the refusal: ${refusal}`);
    await screenshot(page, `i18n-live-${code}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  }
});

test('the switcher, by keyboard: the page changes language at once, keeps its state and its upload, and a reload keeps the choice', async () => {
  const target = others()[0].code;
  const { page, context, errors } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${srv.url}/live`);
  const title = await page.locator('h1').innerText();
  // A large file on its way while the language changes.
  const big = path.join(tempDir('i18n-upload-'), 'big-switch.jpg');
  fs.writeFileSync(big, Buffer.concat([fs.readFileSync(sample('Canon_40D.jpg')), Buffer.alloc(12 * 1024 * 1024, 7)]));
  await page.getByTestId('file-input').setInputFiles(big);
  await row(page, 'big-switch.jpg').waitFor();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
  // Tab to the switcher and pick the next language with the arrow keys, as a keyboard user does.
  const switcher = page.locator('.language-switcher select');
  for (let i = 0; i < 80 && !(await switcher.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  assert.ok(await switcher.evaluate((el) => el === document.activeElement), 'the switcher is reachable by Tab');
  const options = await switcher.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  for (let i = options.indexOf('en'); i < options.indexOf(target); i++) await page.keyboard.press('ArrowDown');
  await page.waitForFunction((lang) => document.documentElement.lang === lang, target);
  assert.notEqual(await page.locator('h1').innerText(), title, 'the heading is in the new language');
  assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 42, 'no reload');
  assert.equal(await page.locator('html').getAttribute('dir'), codes.find((c) => c.code === target)!.dir);
  assert.ok((await context.cookies()).some((c) => c.name === 'wedding_lang' && c.value === target), 'the choice is in the cookie');
  // The upload carries on to the end.
  await row(page, 'big-switch.jpg').and(page.locator('[data-status="complete"], [data-status="uploaded"], [data-status="processing"]')).waitFor({ timeout: 60_000 });
  await page.reload();
  await page.locator('h1').waitFor();
  assert.equal(await page.locator('html').getAttribute('lang'), target, 'a reload keeps the language');
  assert.equal(await switcher.inputValue(), target);
  // Each language is named in itself.
  const names = await switcher.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent, o.getAttribute('lang')]));
  assert.deepEqual(names.find(([v]) => v === 'en'), ['en', 'English', 'en']);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the gallery keeps what it loaded when the language changes', async () => {
  const target = others()[0].code;
  const { page, errors } = await newPage(browser);
  let requests = 0;
  page.on('request', (r) => void (r.url().includes('/api/photos?') && requests++));
  await page.goto(`${srv.url}/gallery`);
  await galleryTiles(page).first().waitFor();
  const tiles = await galleryTiles(page).count();
  const before = requests;
  await page.locator('.language-switcher select').selectOption(target);
  await page.waitForFunction((lang) => document.documentElement.lang === lang, target);
  assert.equal(await galleryTiles(page).count(), tiles);
  assert.equal(requests, before, 'nothing is loaded again');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('right to left at 360 px: the pages mirror and nothing overflows or is cut off', async () => {
  const rtl = codes.filter((c) => c.dir === 'rtl');
  assert.ok(rtl.length >= 1, 'an rtl language in the build');
  for (const { code } of rtl) {
    for (const p of ['/', '/live', '/gallery']) {
      const { page, errors } = await newPage(browser, { width: 360, height: 780 });
      await page.goto(`${srv.url}${p}?lang=${code}`);
      await page.locator('footer').waitFor();
      if (p === '/live') await page.locator('.challenges-card').waitFor();
      assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const out = [...document.querySelectorAll('body *')]
          .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only'))
          .map((el) => ({ el, r: el.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.left < -1 || r.right > width + 1))
          .map(({ el, r }) => `${el.tagName}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
        return { scroll: document.documentElement.scrollWidth, width, out };
      });
      assert.ok(overflow.scroll <= overflow.width, `${code} ${p}: page is ${overflow.scroll}px wide in ${overflow.width}`);
      assert.deepEqual(overflow.out, [], `${code} ${p}: outside the screen`);
      // Mirrored: a page's heading block starts on the right.
      const align = await page.locator('h1, h2').first().evaluate((el) => getComputedStyle(el).direction);
      assert.equal(align, 'rtl');
      await screenshot(page, `i18n-rtl-${code}${p.replace(/\//g, '-') || '-home'}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    }
  }
});

test('sizes and counts as each language writes them: a 6 MB photo reads "6,0 MB" in German, the gallery counts 2 and 5 in Polish, Russian and Ukrainian forms', async () => {
  const shipped = new Set(codes.map((c) => c.code));
  for (const lang of ['de', 'pl', 'ru', 'uk']) assert.ok(shipped.has(lang), `${lang} is in the build`);
  // German upload box: a file of exactly 6 MiB, and the collection's total under "Insgesamt geteilt".
  const six = path.join(tempDir('i18n-sizes-'), 'sechs-mb.jpg');
  const jpeg = fs.readFileSync(sample('Pentax_K10D.jpg'));
  fs.writeFileSync(six, Buffer.concat([jpeg, Buffer.alloc(6 * 1024 * 1024 - jpeg.length, 5)]));
  const { stats } = (await (await fetch(`${srv.url}/api/stats`)).json()) as { stats: { total_size_mb: number } };
  const [whole, tenths] = stats.total_size_mb.toFixed(1).split('.');
  const { page, errors } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(`${srv.url}/live?lang=de`);
  assert.equal(await page.getByTestId('insights-size').innerText(), `${whole},${tenths} MB`);
  await page.getByTestId('file-input').setInputFiles(six);
  const meta = row(page, 'sechs-mb.jpg').locator('.upload-item-meta');
  assert.equal((await meta.innerText()).trim(), 'Foto 6,0 MB');
  await row(page, 'sechs-mb.jpg').and(page.locator('[data-status="complete"], [data-status="uploaded"], [data-status="processing"]')).waitFor({ timeout: 60_000 });
  await screenshot(page, 'i18n-live-de-upload');
  assert.deepEqual(errors, []);
  await page.context().close();

  // The gallery's count line in the browser's own plural rules: 2 approved photos, then 5.
  const countLine = async (lang: string): Promise<string> => {
    const { page, errors } = await newPage(browser, { width: 390, height: 844 });
    await page.goto(`${srv.url}/gallery?lang=${lang}`);
    await galleryTiles(page).first().waitFor();
    const line = await page.getByTestId('gallery-count').innerText();
    assert.deepEqual(errors, []);
    await page.context().close();
    return line;
  };
  const total = async () => ((await (await fetch(`${srv.url}/api/photos?limit=1`)).json()) as { pagination: { total: number } }).pagination.total;
  assert.equal(await total(), 2, 'the two photos approved before the tests');
  assert.equal(await countLine('pl'), '2 zdjęcia i filmy od naszych gości');
  assert.equal(await countLine('ru'), '2 фотографии и видео от наших гостей');
  assert.equal(await countLine('uk'), '2 фотографії та відео від наших гостей');
  const admin = await adminClient(srv.url);
  // Photo challenges, so /live shows their picker (and its texts) in every language.
  const challenges = [{ title: 'A photo with the oldest guest', description: 'Whoever has the most birthdays behind them.' }, { title: 'The first dance' }];
  assert.equal((await admin.put('/admin/api/settings', { challenges })).status, 200);
  for (const f of ['Fujifilm_FinePix_E500.jpg', 'Panasonic_DMC-FZ30.jpg', 'mobile_jolla.jpg']) await admin.post(`/admin/api/photos/${await guestUpload(srv.url, sample(f))}/approve`);
  assert.equal(await total(), 5);
  assert.equal(await countLine('pl'), '5 zdjęć i filmów od naszych gości');
  assert.equal(await countLine('ru'), '5 фотографий и видео от наших гостей');
  assert.equal(await countLine('uk'), '5 фотографій та відео від наших гостей');
  assert.equal(await countLine('de'), '5 Fotos und Videos von unseren Gästen');
});
