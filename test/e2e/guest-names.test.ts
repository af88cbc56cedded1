import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { uploadAsGuest } from './admin-helpers.js';
import { adminPhotos, waitStatus } from './guest-helpers.js';

let browser: Browser;
let srv: ServerProcess;
let guest: { context: BrowserContext; page: Page; errors: string[] };
let admin: TestClient;
// HTML in a name must come out as text, never as markup.
const NAME = 'Anna <b>Lee</b>';

before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  guest = await newPage(browser, { width: 360, height: 740 });
  admin = new TestClient(srv.url);
  await admin.login();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

const myRow = (page: Page, file: string) => page.getByTestId('my-upload').filter({ hasText: file });

test('a guest gives a name, uploads, reloads, sees the files under "My uploads" and deletes one by keyboard', async () => {
  const { page, errors } = guest;
  await page.goto(srv.url + '/live');
  await page.getByLabel('Your name (optional)').fill(NAME);
  await page.getByTestId('file-input').setInputFiles([sample('Canon_40D.jpg'), sample('Nikon_D70.jpg')]);
  await waitStatus(page, 'Canon_40D.jpg', 'complete');
  await waitStatus(page, 'Nikon_D70.jpg', 'complete');

  await page.reload();
  assert.equal(await page.getByLabel('Your name (optional)').inputValue(), NAME, 'the name is remembered on the device');
  const section = page.getByRole('region', { name: 'My uploads' });
  await myRow(page, 'Canon_40D.jpg').waitFor();
  await myRow(page, 'Nikon_D70.jpg').waitFor();
  assert.equal(await myRow(page, 'Canon_40D.jpg').getByTestId('my-upload-state').innerText(), 'Waiting for approval');
  // Hidden, yet this guest sees its own thumbnail.
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.my-upload-thumb')].some((i) => i.complete && i.naturalWidth > 0));
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 360), 'no sideways scrolling on a 360 px phone');
  await screenshot(page, 'guest-my-uploads-360');

  const stored = await adminPhotos(admin);
  assert.equal(stored.length, 2);
  const listed = (await admin.get('/admin/api/photos?per_page=100')).body.photos;
  assert.ok(listed.every((p: any) => p.uploader_name === NAME), 'every file carries the name');

  // Keyboard only: focus the row's Delete, Enter, then Enter on the confirmation.
  await myRow(page, 'Canon_40D.jpg').getByRole('button', { name: 'Delete Canon_40D.jpg' }).focus();
  await page.keyboard.press('Enter');
  const yes = myRow(page, 'Canon_40D.jpg').getByRole('button', { name: 'Yes, delete' });
  await yes.waitFor();
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Yes, delete', 'the confirmation takes the focus');
  await page.keyboard.press('Escape'); // nothing happens without a choice
  await page.keyboard.press('Enter');
  await myRow(page, 'Canon_40D.jpg').waitFor({ state: 'detached' });
  assert.equal(await section.getByTestId('my-upload').count(), 1);

  const after = await adminPhotos(admin);
  assert.deepEqual(after.map((p) => p.original_filename), ['Nikon_D70.jpg'], 'the admin list no longer has it');
  await page.reload();
  await myRow(page, 'Nikon_D70.jpg').waitFor();
  assert.equal(await myRow(page, 'Canon_40D.jpg').count(), 0, 'still gone after a reload');
  assert.deepEqual(errors, []);
});

test('the admin filters the photos by that guest; the name shows as text in admin, gallery viewer and wall', async () => {
  await uploadAsGuest(srv.url, 'Pentax_K10D.jpg'); // another guest, anonymous
  const { page, errors } = await newPage(browser);
  await uiLogin(page, srv.url);
  // The dashboard: one activity row for the guest's burst, and the guest among the top contributors.
  const activity = page.getByRole('list', { name: 'Recent activity' });
  await activity.getByText(`${NAME} uploaded 2 photos`, { exact: true }).waitFor();
  const uploadRows = await activity.locator('.activity-upload .activity-description').allInnerTexts();
  assert.deepEqual(uploadRows.filter((t) => t.includes('Anna')), [`${NAME} uploaded 2 photos`], 'one row for the burst, not one per file');
  assert.match(await page.getByRole('list', { name: 'Top contributors' }).innerText(), new RegExp(`${NAME.replace(/[/]/g, '\\/')}\\s+1 file`));
  await page.goto(srv.url + '/admin/photos');
  await page.getByTestId('photo-card').filter({ hasText: 'Pentax_K10D.jpg' }).waitFor();
  assert.equal(await page.getByTestId('photo-card').count(), 2);
  await page.getByLabel('Guest').selectOption({ label: `${NAME} (1)` });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="photo-card"]').length === 1);
  const card = page.getByTestId('photo-card');
  assert.match(await card.innerText(), /Nikon_D70\.jpg/);
  assert.equal(await card.getByTestId('photo-uploader').innerText(), NAME);
  assert.equal(await card.locator('b').count(), 0, 'no markup from the name');
  await screenshot(page, 'admin-photos-filtered-by-guest');
  await page.getByLabel('Guest').selectOption({ label: 'All guests' });
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="photo-card"]').length === 2);

  // Approved, the photo shows "Shared by ..." in the gallery's viewer and "by ..." on the wall.
  const nikon = (await adminPhotos(admin)).find((p) => p.original_filename === 'Nikon_D70.jpg')!;
  assert.equal((await admin.post(`/admin/api/photos/${nikon.id}/approve`)).status, 200);
  const g = guest.page;
  await g.goto(srv.url + '/gallery');
  await g.getByRole('button', { name: 'Open photo Nikon_D70.jpg' }).click();
  assert.equal(await g.getByTestId('viewer-shared-by').innerText(), `Shared by ${NAME}`);
  assert.equal(await g.locator('.viewer b').count(), 0);
  await page.goto(srv.url + '/wall');
  await page.getByTestId('wall-by').waitFor();
  assert.equal(await page.getByTestId('wall-by').innerText(), `by ${NAME}`);
  assert.deepEqual(errors, []);

  // "My uploads" says where each file stands: in the gallery now, and a broken file could not be processed.
  await g.goto(srv.url + '/live');
  await g.getByTestId('file-input').setInputFiles(sample('corrupted.jpg'));
  await waitStatus(g, 'corrupted.jpg', 'complete');
  await g.waitForFunction(() =>
    [...document.querySelectorAll('[data-testid="my-upload"]')].some((r) => r.textContent?.includes('corrupted.jpg') && r.textContent.includes('Could not be processed')),
  );
  assert.equal(await myRow(g, 'Nikon_D70.jpg').getByTestId('my-upload-state').innerText(), 'In the gallery');
});

test('the settings page explains show_uploader_names; switched off, the viewer no longer names the guest', async () => {
  const { page, errors } = await newPage(browser);
  await uiLogin(page, srv.url);
  await page.goto(srv.url + '/admin/settings');
  const toggle = page.getByRole('switch', { name: "Show guests' names with their photos" });
  await toggle.waitFor();
  assert.equal(await toggle.isChecked(), true, 'on by default');
  assert.match(await page.locator('#st-names-hint').innerText(), /the gallery, the photo viewer and the wall show it/);
  await toggle.uncheck();
  await page.getByRole('button', { name: 'Save' }).first().click();
  await page.locator('.toast', { hasText: 'Settings saved' }).waitFor();
  assert.equal((await admin.get('/api/settings')).body.settings.show_uploader_names, false);

  const g = guest.page;
  await g.goto(srv.url + '/gallery');
  await g.getByRole('button', { name: 'Open photo Nikon_D70.jpg' }).click();
  await g.getByRole('dialog').waitFor();
  assert.equal(await g.getByTestId('viewer-shared-by').count(), 0);
  assert.ok(!(await g.getByRole('dialog').innerText()).includes('Anna'));
  assert.deepEqual(errors, []);
});
