// /gallery draws its first page of tiles in the HTML (server/http/gallery-html.ts): in Chromium the
// first thumbnails load and paint while the app's script is still held back (the later tiles wait
// for the app for their pictures), the app then takes the place of that markup with the same
// tiles in the same place (no blank tile, no shift), and the page works as before. Hidden photos
// never reach the HTML.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DRAWN_TILES } from '../../server/http/gallery-html.js';
import { launchBrowser, newPage, ServerProcess } from '../helpers/browser.js';
import { adminClient, type TestClient } from '../helpers/server.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;
/** Visible, newest first (the gallery's order). */
const visible: string[] = [];
let hidden = '';

async function upload(seed: number, name: string): Promise<string> {
  const r = await uploadFile(srv.url, await tinyImage('jpeg', seed, 320, 240), name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(await waitForStatus(srv.url, r.body.photo_id), 'complete');
  return r.body.photo_id as string;
}

before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  admin = await adminClient(srv.url);
  // 22 photos: a first page of 20 and two more behind "Load More". One name the markup must escape.
  for (let i = 0; i < 22; i++) {
    const id = await upload(10 * i + 3, i === 5 ? `Tom & "Jerry" <b>$&.jpg` : `dance-${i}.jpg`);
    assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
    visible.unshift(id);
  }
  hidden = await upload(251, 'not-yet-approved.jpg');
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** Holds the app's main script back until `release()`. */
async function holdScript(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/main-[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Records, at each change the app makes to its element, whether a tile was without its picture. */
const WATCH_TAKEOVER = `(() => {
  const root = document.getElementById('root');
  // The app's grid as the HTML draws it: the tiles after the first ${DRAWN_TILES} without their picture.
  const drawn = (grid) => {
    const copy = grid.cloneNode(true);
    [...copy.children].slice(${DRAWN_TILES}).forEach((li) => li.querySelector('img')?.remove());
    return copy.outerHTML;
  };
  const staticImg = root.querySelector('.gallery-grid img');
  window.takeover = { commits: 0, blank: 0, grid: null, filter: null, top: null };
  new MutationObserver(() => {
    const t = window.takeover;
    t.commits++;
    const img = root.querySelector('.gallery-grid img');
    if (!img || !img.complete || !img.naturalWidth) t.blank++;
    if (img && img !== staticImg && t.grid === null) {
      t.grid = drawn(root.querySelector('.gallery-grid'));
      t.filter = root.querySelector('.moment-filter').outerHTML;
      t.top = img.getBoundingClientRect().top;
    }
  }).observe(root, { childList: true, subtree: true });
})()`;

for (const lang of ['en', 'ar']) {
  test(`${lang}: the first thumbnails load and paint before the app's script has run; the app then takes their place unchanged`, async () => {
    const { page, context, errors } = await newPage(browser, { width: 390, height: 844 });
    const release = await holdScript(page);
    const asked: string[] = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname + new URL(r.url()).search));
    const response = await page.goto(`${srv.url}/gallery?lang=${lang}`, { waitUntil: 'commit' });
    const html = (await response!.text()) ?? '';
    // Painted: the image has loaded, and two frames have been drawn since.
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.gallery-grid li img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    // Places are compared once the fonts are in (their swap moves text whoever drew it).
    await page.evaluate(() => document.fonts.ready);
    const before = await page.evaluate(() => ({
      app: !!document.querySelector('.site-footer'),
      tiles: document.querySelectorAll('.gallery-grid > li').length,
      srcs: [...document.querySelectorAll<HTMLImageElement>('.gallery-grid li img')].map((i) => new URL(i.src).pathname),
      answer: (JSON.parse(document.getElementById('early-answers')!.textContent!)['/api/photos?limit=20&offset=0'].photos as { id: string }[]).map((p) => p.id),
      top: document.querySelector('.gallery-grid img')!.getBoundingClientRect().top,
      grid: document.querySelector('.gallery-grid')!.outerHTML,
      filter: document.querySelector('.moment-filter')!.outerHTML,
      dir: document.documentElement.dir,
    }));
    assert.equal(before.app, false, 'the app has not rendered: its script is held back');
    assert.ok(asked.some((u) => /\/assets\/main-/.test(u)), 'the script was asked for (and is held)');
    assert.ok(asked.some((u) => u.startsWith(`/media/${visible[0]}/thumb`)), 'the first thumbnail was fetched without the script');
    // The first page, in the gallery's order, visible photos only; the first row with its pictures.
    assert.equal(before.tiles, 20);
    assert.deepEqual(before.answer, visible.slice(0, 20));
    assert.deepEqual(before.srcs, visible.slice(0, DRAWN_TILES).map((id) => `/media/${id}/thumb`));
    const thumbs = asked.filter((u) => /^\/media\/.*\/thumb/.test(u));
    assert.deepEqual(thumbs.map((u) => u.split('/')[2]), visible.slice(0, DRAWN_TILES), 'no other picture shares the link with the held script');
    assert.equal(before.dir, lang === 'ar' ? 'rtl' : 'ltr');
    assert.ok(!html.includes(hidden), 'a hidden photo is nowhere in the HTML');
    assert.ok(!asked.some((u) => u.startsWith('/api/photos?limit=20')), 'the first page came with the HTML');

    await page.evaluate(WATCH_TAKEOVER);
    release();
    await page.locator('.site-footer').waitFor();
    const t = (await page.evaluate('window.takeover')) as { commits: number; blank: number; grid: string; filter: string; top: number };
    assert.ok(t.commits > 0 && t.grid !== null, 'the app replaced the markup');
    assert.equal(t.blank, 0, 'no change left the first tile without its picture');
    assert.equal(t.grid, before.grid, "the app's grid is the HTML's, tile for tile");
    assert.equal(t.filter, before.filter);
    assert.equal(t.top, before.top, 'the first tile did not move');
    assert.deepEqual(errors, []);
    await context.close();
  });
}

test('a tile tapped before the app has taken over opens once it has', async () => {
  const { page, context, errors } = await newPage(browser, { width: 390, height: 844 });
  const release = await holdScript(page);
  await page.goto(srv.url + '/gallery', { waitUntil: 'commit' });
  await page.locator('.gallery-grid > li').nth(4).locator('.gallery-tile').click();
  assert.equal(await page.getByRole('dialog').count(), 0, 'nothing to open it yet');
  release();
  const viewer = page.getByRole('dialog');
  await viewer.waitFor();
  assert.equal(await viewer.getAttribute('aria-label'), 'dance-17.jpg');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  // Focus goes back to the tile, now the app's.
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Open photo dance-17.jpg');
  assert.deepEqual(errors, []);
  await context.close();
});

test('after the takeover the gallery works as before: the viewer, hearts and the next page', async () => {
  const { page, context, errors } = await newPage(browser, { width: 390, height: 844 });
  await page.goto(srv.url + '/gallery');
  await page.locator('.site-footer').waitFor();
  const tiles = page.locator('.gallery-grid > li');
  assert.equal(await tiles.count(), 20);
  await tiles.nth(0).locator('.gallery-tile').click();
  const viewer = page.getByRole('dialog');
  await viewer.waitFor();
  assert.equal(await viewer.getAttribute('aria-label'), 'dance-21.jpg');
  await page.keyboard.press('Escape');
  await viewer.waitFor({ state: 'detached' });
  await tiles.nth(1).locator('.heart').click();
  await page.waitForFunction(() => document.querySelectorAll('.gallery-grid > li .heart')[1]?.getAttribute('aria-pressed') === 'true');
  await page.getByRole('button', { name: 'Load More Media' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.gallery-grid > li').length === 22);
  const srcs = await page.evaluate(() => [...document.querySelectorAll<HTMLImageElement>('.gallery-grid li img')].map((i) => new URL(i.src).pathname));
  assert.deepEqual(srcs, visible.map((id) => `/media/${id}/thumb`));
  // The heart was sent: a reload draws it pressed in the HTML already.
  const html = await (await page.request.get(srv.url + '/gallery')).text();
  assert.match(html, /class="heart " aria-pressed="true" aria-label="Love this photo \(1 heart\)"/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a photo hidden again leaves the HTML; a closed gallery draws no tiles', async () => {
  const page = async () => (await fetch(srv.url + '/gallery')).text();
  assert.equal((await admin.post(`/admin/api/photos/${visible[3]}/hide`)).status, 200);
  const html = await page();
  assert.ok(!html.includes(visible[3]) && !html.includes(hidden));
  assert.ok(html.includes(visible[0]));
  assert.equal((await admin.post(`/admin/api/photos/${visible[3]}/approve`)).status, 200);

  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: new Date(Date.now() + 3_600_000).toISOString() })).status, 200);
  try {
    const closed = await page();
    assert.ok(!closed.includes('gallery-grid') && !closed.includes('early-answers') && !visible.some((id) => closed.includes(id)));
    const { page: tab, context } = await newPage(browser, { width: 390, height: 844 });
    await tab.goto(srv.url + '/gallery');
    await tab.locator('.gallery-message').waitFor();
    assert.equal(await tab.locator('.gallery-grid img').count(), 0);
    await context.close();
  } finally {
    assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: null })).status, 200);
  }
});
