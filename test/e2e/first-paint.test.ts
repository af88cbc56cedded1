// A guest's first look, in a real browser: an English page loads no font subset it shows no text
// in (the language switcher's names in other scripts use the system font), and the gallery asks
// for its data while its scripts still load, so its first thumbnails do not wait for them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { adminClient } from '../helpers/server.js';
import { guestUpload, waitProcessed } from './wall-helpers.js';

let browser: Browser;
let srv: ServerProcess;

before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  const admin = await adminClient(srv.url);
  for (const name of ['Canon_40D.jpg', 'Nikon_D70.jpg']) {
    const id = await guestUpload(srv.url, sample(name));
    await waitProcessed(srv.url, id);
    assert.equal((await admin.json('POST', `/admin/api/photos/${id}/approve`)).status, 200);
  }
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('an English page loads only the Latin subsets of its fonts', async () => {
  for (const path of ['/', '/live', '/gallery']) {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    const fonts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'font') fonts.push(new URL(r.url()).pathname.split('/').pop()!);
    });
    await page.goto(srv.url + path, { waitUntil: 'networkidle' });
    // Open the switcher's list as a guest would: its names must not pull other scripts' fonts either.
    await page.locator('.language-switcher select').first().focus().catch(() => {});
    await page.waitForLoadState('networkidle');
    assert.ok(fonts.length > 0, `${path}: the theme's fonts load (${fonts.join(', ')})`);
    const other = fonts.filter((f) => !/-latin-\d{3}-(normal|italic)-/.test(f));
    assert.deepEqual(other, [], `${path} loads font subsets for scripts it shows no text in`);
    await context.close();
  }
});

test('the gallery has its first photos in the page and asks for the settings before its scripts have run', async () => {
  const { page, context } = await newPage(browser, { width: 390, height: 844 });
  const order: { url: string; at: number }[] = [];
  page.on('request', (r) => order.push({ url: new URL(r.url()).pathname + new URL(r.url()).search, at: Date.now() }));
  await page.goto(srv.url + '/gallery');
  await page.locator('.gallery-grid li img').first().waitFor({ timeout: 30_000 });
  await page.locator('.site-footer').waitFor();
  // The main script's own imports (chunks) are asked for once it is fetched and parsed; fonts once
  // the page has text. Asked by the page's head, the settings go before both; the first page of
  // photos is in the HTML (its tiles too: test/e2e/gallery-first-paint.test.ts).
  const urls = order.map((o) => o.url);
  const firstChunk = urls.findIndex((u) => /\/assets\/chunk-/.test(u));
  const firstFont = urls.findIndex((u) => /\.woff2$/.test(u));
  const firstThumb = urls.findIndex((u) => /^\/media\/.*\/thumb/.test(u));
  const settings = urls.indexOf('/api/settings');
  assert.ok(firstChunk >= 0 && firstFont >= 0 && firstThumb >= 0 && settings >= 0, urls.join(' '));
  for (const [name, at] of [['a thumbnail', firstThumb], ['settings', settings]] as const) {
    assert.ok(at < firstChunk && at < firstFont, `${name} asked at ${at}, before the scripts' imports (${firstChunk}) and the fonts (${firstFont}): ${urls.join(' ')}`);
  }
  assert.equal(order.filter((o) => o.url.startsWith('/api/photos?limit=20&offset=0')).length, 0, `the first page of photos came with the page: ${urls.join(' ')}`);
  assert.equal(order.filter((o) => o.url === '/api/settings').length, 1, 'the settings asked once');
  await context.close();
});
