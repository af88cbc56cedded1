import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { adminPhotos, galleryTiles, waitStatus } from './guest-helpers.js';

/**
 * Photo challenges end to end in Chromium: the couple sets them in the settings, a guest on a
 * 360 px phone picks one by keyboard and uploads, the gallery filters by it and the dashboard
 * counts it; a challenge removed while a guest still has it picked does not cost the file.
 */
let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;
const OLDEST = 'A photo with the oldest guest';
const DANCE = 'The first dance, from where you stand';

before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  admin = new TestClient(srv.url);
  await admin.login();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const challengesNow = async () => (await admin.get('/admin/api/settings')).body.settings.challenges as { id: string; title: string; description: string }[];
const picker = (page: Page) => page.getByRole('region', { name: 'Photo challenges' });

test('the couple adds challenges in the settings; new ones get ids, rewording keeps them', async () => {
  const { page, errors } = await newPage(browser);
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/settings');
  const section = page.getByRole('region', { name: 'Photo challenges' });
  await section.getByText('No challenges yet.', { exact: false }).waitFor();
  await section.getByRole('button', { name: 'Add a challenge' }).click();
  await section.getByRole('button', { name: 'Add a challenge' }).click();
  await section.getByLabel('Title').nth(0).fill('A photo with the oldest');
  await section.getByLabel('Description (optional)').nth(0).fill('Grandma, great-uncle: whoever has the most birthdays behind them.');
  await section.getByLabel('Title').nth(1).fill(DANCE);
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await page.getByText('Settings saved', { exact: false }).first().waitFor();
  const saved = await challengesNow();
  assert.deepEqual(
    saved.map((c) => c.title),
    ['A photo with the oldest', DANCE],
  );
  assert.ok(saved.every((c) => /^[A-Za-z0-9_-]+$/.test(c.id)), 'each new challenge was given an id');

  // Reworded: same id.
  await section.getByLabel('Title').nth(0).fill(OLDEST);
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await page.waitForFunction(async () => (await (await fetch('/api/settings')).json()).settings.challenges[0].title === 'A photo with the oldest guest');
  const reworded = await challengesNow();
  assert.equal(reworded[0].id, saved[0].id, 'a reworded challenge keeps its id (and its photos)');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a guest on a phone picks a challenge by keyboard, uploads, and the pick is kept over a reload', async () => {
  const [oldest] = await challengesNow();
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  const card = picker(page);
  await card.waitFor();
  assert.equal(await card.getByRole('radio', { name: 'No challenge, just sharing' }).isChecked(), true, 'no challenge until one is picked');
  assert.equal(await card.locator('.challenge-count').first().innerText(), 'No photos yet');
  assert.match(await card.innerText(), /whoever has the most birthdays/, 'the description is shown');

  // Keyboard: into the group, then the arrow key moves the choice to the first challenge.
  await card.getByRole('radio', { name: 'No challenge, just sharing' }).focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await card.getByRole('radio', { name: new RegExp(OLDEST) }).isChecked(), true);
  await card.getByRole('status').getByText(`count for “${OLDEST}”`, { exact: false }).waitFor();
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no sideways scrolling at 360 px');
  await screenshot(page, 'challenges-live-360');

  await page.getByTestId('file-input').setInputFiles([sample('Canon_40D.jpg')]);
  await waitStatus(page, 'Canon_40D.jpg', 'complete');

  await page.reload();
  await picker(page).waitFor();
  assert.equal(await picker(page).getByRole('radio', { name: new RegExp(OLDEST) }).isChecked(), true, 'the pick survives a reload');
  // Back to no challenge for the next file.
  await picker(page).getByRole('radio', { name: 'No challenge, just sharing' }).check();
  await page.getByTestId('file-input').setInputFiles([sample('Nikon_D70.jpg')]);
  await waitStatus(page, 'Nikon_D70.jpg', 'complete');

  for (const p of await adminPhotos(admin)) assert.equal((await admin.post(`/admin/api/photos/${p.id}/approve`)).status, 200);
  const listed = (await (await fetch(`${srv.url}/api/photos?challenge=${oldest.id}`)).json()) as { photos: { original_filename: string; challenge: string | null }[] };
  assert.deepEqual(
    listed.photos.map((p) => [p.original_filename, p.challenge]),
    [['Canon_40D.jpg', OLDEST]],
    'only the file added for the challenge answers it',
  );

  await page.reload();
  await picker(page).locator('.challenge-count').first().getByText('1 photo', { exact: true }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the gallery filters by challenge, and the dashboard counts each one', async () => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/gallery');
  await galleryTiles(page).first().waitFor();
  assert.equal(await galleryTiles(page).count(), 2);
  const filter = page.getByRole('group', { name: 'Show photos from' });
  assert.equal(await filter.getByRole('button', { name: DANCE }).count(), 0, 'a challenge without photos is not offered');
  await filter.getByRole('button', { name: OLDEST }).click();
  await page.getByTestId('gallery-count').getByText('1 photo(s)', { exact: false }).waitFor();
  assert.equal(await galleryTiles(page).count(), 1);
  assert.equal(await filter.getByRole('button', { name: OLDEST }).getAttribute('aria-pressed'), 'true');
  // The viewer names the challenge the photo answers.
  await galleryTiles(page).first().locator('.gallery-tile').click();
  assert.equal(await page.getByTestId('viewer-challenge').innerText(), OLDEST);
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await filter.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByTestId('gallery-count').getByText('2 photo(s)', { exact: false }).waitFor();
  assert.deepEqual(errors, []);
  await page.context().close();

  const dash = await newPage(browser);
  await uiLogin(dash.page, srv.url);
  const table = dash.page.getByRole('region', { name: 'Photo challenges' }).getByRole('table');
  await table.waitFor();
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c as HTMLElement).innerText)));
  assert.deepEqual(rows, [
    [OLDEST, '1', '1'],
    [DANCE, '0', '0'],
  ]);
  assert.deepEqual(dash.errors, []);
  await dash.page.context().close();
});

test('a challenge removed while a guest still has it picked: the file is stored without it, nothing is lost', async () => {
  const { page, errors } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/live');
  await picker(page).getByRole('radio', { name: new RegExp(DANCE) }).check();
  // The couple removes it; this page still shows it.
  const [oldest] = await challengesNow();
  assert.equal((await admin.put('/admin/api/settings', { challenges: [oldest] })).status, 200);
  await page.getByTestId('file-input').setInputFiles([sample('Pentax_K10D.jpg')]);
  await waitStatus(page, 'Pentax_K10D.jpg', 'complete');
  const stored = (await adminPhotos(admin)).find((p) => p.original_filename === 'Pentax_K10D.jpg');
  assert.ok(stored, 'the file is stored');
  assert.equal((await admin.post(`/admin/api/photos/${stored.id}/approve`)).status, 200);
  const item = ((await (await fetch(`${srv.url}/api/photos?limit=100`)).json()) as { photos: { id: string; challenge: string | null }[] }).photos.find((p) => p.id === stored.id);
  assert.equal(item?.challenge, null);
  // The next visit no longer offers the removed challenge, and the pick is gone.
  await page.reload();
  await picker(page).waitFor();
  assert.equal(await picker(page).getByRole('radio', { name: new RegExp(DANCE) }).count(), 0);
  assert.equal(await picker(page).getByRole('radio', { name: 'No challenge, just sharing' }).isChecked(), true);
  assert.deepEqual(errors, []);
  await page.context().close();
});
