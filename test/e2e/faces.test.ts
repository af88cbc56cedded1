import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { FAKE_MEDIA, launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { faceless, GROUP_PHOTOS, selfieFrom, SELFIE_LOOKS } from '../helpers/faces.js';
import { TestClient } from '../helpers/server.js';
import { FACE_IN_PHOTO_1, uploadVisible } from '../server/faces-helpers.js';
import { galleryTiles } from './guest-helpers.js';

// The whole "Find photos of me" flow on the built site: the couple turn it on in the dashboard, a
// guest on a 360 px phone picks a selfie made from one face of group photo 1 and sees that photo
// and none of the five others, clears the filter, comes back, and deletes their face data.
let browser: Browser;
let srv: ServerProcess;
let admin: TestClient;
let selfie: Buffer;

before(async () => {
  // Face workers at normal priority: at nice 19 on a busy machine they get next to no CPU.
  srv = new ServerProcess(undefined, { FACE_NICE: '0' });
  srv.startMs = 300_000;
  [browser] = await Promise.all([launchBrowser(), srv.start()]);
  admin = new TestClient(srv.url);
  await admin.login();
  const uploader = new TestClient(srv.url);
  for (const [i, file] of GROUP_PHOTOS.entries()) await uploadVisible(uploader, admin, file, `group-${i + 1}.jpg`);
  selfie = await selfieFrom(GROUP_PHOTOS[0], FACE_IN_PHOTO_1, SELFIE_LOOKS[0]);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** A page that waits as long as a machine busy with other work needs (the face workers share it). */
async function patientPage(on: Browser = browser, viewport = { width: 360, height: 800 }) {
  const p = await newPage(on, viewport);
  p.context.setDefaultTimeout(180_000);
  return p;
}

// The tiles' open buttons (each tile also has a heart button).
const tileNames = (page: Page) => galleryTiles(page).locator('button[aria-label^="Open photo"]').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')).sort());
const ALL = GROUP_PHOTOS.map((_, i) => `Open photo group-${i + 1}.jpg`).sort();
const noSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function setFaceSearch(page: Page, on: boolean): Promise<void> {
  const card = page.getByTestId('face-card');
  const toggle = card.getByRole('switch', { name: 'Let guests find their photos with a selfie' });
  if (on) await toggle.check();
  else await toggle.uncheck();
  await card.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Face search settings saved').first().waitFor();
}

test('the couple turn face search on from the dashboard: it ends 60 days later, and the card says so', async () => {
  const { page, errors } = await patientPage();
  await uiLogin(page, srv.url);
  const card = page.getByTestId('face-card');
  await card.getByTestId('face-status').getByText('Off', { exact: true }).waitFor();
  await setFaceSearch(page, true);
  const s = (await admin.get('/admin/api/settings')).body.settings;
  assert.equal(s.face_search, true);
  const days = (Date.parse(s.face_search_until) - Date.now()) / 86_400_000;
  assert.ok(days > 59 && days < 61, `ends in ${days} days`);
  await card.getByText(/^On until /).waitFor();
  const shown = await card.getByLabel('Delete all face data on').inputValue();
  assert.ok(Math.abs(Date.parse(shown) - Date.parse(s.face_search_until)) < 2 * 86_400_000, `the end date field shows the end (${shown})`);
  assert.ok(await noSideways(page), 'the dashboard card fits a 360 px phone');
  await screenshot(page, 'faces-admin-card-360');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('a guest picks a selfie and sees only the photos they are in; clears the filter; comes back; forgets their face', async () => {
  const { page, errors } = await patientPage();
  await page.goto(srv.url + '/gallery');
  await galleryTiles(page).nth(5).waitFor();
  const entry = page.getByRole('button', { name: 'Find photos of me' });
  await entry.click();
  const panel = page.getByTestId('face-panel');
  await panel.getByText('The faces of people who did not ask are never stored.').waitFor();
  await panel.getByText(/until you press “Forget me” or until .+ at the latest/).waitFor();
  // Nothing opens before the box is ticked.
  assert.equal(await panel.getByRole('button', { name: 'Take a selfie' }).isDisabled(), true);
  assert.equal(await panel.getByRole('button', { name: 'Choose a photo' }).isDisabled(), true);
  const box = panel.getByRole('checkbox');
  assert.equal(await box.isChecked(), false, 'the consent box starts unticked');
  await box.focus();
  await page.keyboard.press('Space');
  assert.equal(await panel.getByRole('button', { name: 'Choose a photo' }).isDisabled(), false);

  // A picture without a face: said in plain words.
  await page.getByTestId('face-file').setInputFiles({ name: 'tablecloth.jpg', mimeType: 'image/jpeg', buffer: await faceless() });
  await panel.getByRole('alert').getByText('We could not find a face in this photo. Please try another one where your face is clearly visible.').waitFor({ timeout: 300_000 });

  await page.getByTestId('face-file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: selfie });
  const status = panel.getByTestId('face-status');
  await status.getByText('Every photo has been checked. New photos are checked as they are added to the gallery.').waitFor({ timeout: 600_000 });
  await status.getByText('You appear in 1 photo.').waitFor();
  assert.deepEqual(await tileNames(page), ['Open photo group-1.jpg'], 'only the photo with this face');
  assert.ok(await noSideways(page), 'the results fit a 360 px phone');
  await screenshot(page, 'faces-guest-results-360');

  // The filter is cleared: the whole gallery again, and the entry button takes the focus back.
  await panel.getByRole('button', { name: 'Show all photos' }).click();
  await galleryTiles(page).nth(5).waitFor();
  assert.deepEqual(await tileNames(page), ALL);
  assert.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Find photos of me');

  // This browser's search is kept: reopened after a reload, the results come straight back.
  await page.reload();
  await page.getByRole('button', { name: 'Find photos of me' }).click();
  await status.getByText('You appear in 1 photo.').waitFor();
  assert.deepEqual(await tileNames(page), ['Open photo group-1.jpg']);
  assert.equal((await admin.get('/admin/api/faces')).body.faces.guests, 1);

  await panel.getByRole('button', { name: 'Forget me' }).click();
  await panel.getByRole('status').getByText('Your face code and the list of your photos have been deleted.').waitFor();
  await galleryTiles(page).nth(5).waitFor();
  assert.equal((await admin.get('/admin/api/faces')).body.faces.guests, 0, 'no face code is left');
  const mine = await page.evaluate(async () => (await fetch('/api/faces/me')).status);
  assert.equal(mine, 404, 'this browser has no search any more');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('the front camera takes the selfie (fake camera: its picture has no face, said in plain words)', async () => {
  const camera = await launchBrowser(FAKE_MEDIA);
  try {
    const { page, errors } = await patientPage(camera);
    await page.goto(srv.url + '/gallery');
    await page.getByRole('button', { name: 'Find photos of me' }).click();
    const panel = page.getByTestId('face-panel');
    await panel.getByRole('checkbox').check();
    await panel.getByRole('button', { name: 'Take a selfie' }).click();
    await page.waitForFunction(() => (document.querySelector('.face-camera video') as HTMLVideoElement | null)?.videoWidth);
    await panel.getByRole('button', { name: 'Take the photo' }).click();
    await panel.getByRole('alert').getByText('We could not find a face in this photo. Please try another one where your face is clearly visible.').waitFor({ timeout: 300_000 });
    // The stream is stopped once the photo is taken.
    assert.equal(await page.locator('.face-camera').count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await camera.close();
  }
});

test('right to left (Hebrew) at 360 px: the panel fits and the page reads right to left', async () => {
  const { page, context, errors } = await patientPage();
  await context.addCookies([{ name: 'wedding_lang', value: 'he', url: srv.url }]);
  await page.goto(srv.url + '/gallery');
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
  await page.locator('.face-entry').click();
  await page.getByTestId('face-panel').getByRole('checkbox').waitFor();
  assert.ok(await noSideways(page), 'nothing sticks out sideways');
  await screenshot(page, 'faces-guest-consent-he-360');
  assert.deepEqual(errors, []);
  await context.close();
});

test('turned off by the couple: the entry is gone from the gallery and the card says Off', async () => {
  const { page, errors } = await patientPage(browser, { width: 1280, height: 900 });
  await uiLogin(page, srv.url);
  await setFaceSearch(page, false);
  await page.getByTestId('face-card').getByTestId('face-status').getByText('Off', { exact: true }).waitFor();
  assert.equal((await admin.get('/admin/api/settings')).body.settings.face_search, false);
  await page.goto(srv.url + '/gallery');
  await galleryTiles(page).nth(5).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Find photos of me' }).count(), 0);
  assert.deepEqual(errors, []);
  await page.context().close();
});
