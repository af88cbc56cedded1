import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { cardOf, publicIds, uploadAsGuest } from './admin-helpers.js';

/**
 * The moderation flow in real Chromium against the built server: guest uploads land in the
 * approval queue, get skipped, approved one by one and in bulk, rejected, rotated and hidden.
 */
describe('admin photos in a browser', () => {
  const server = new ServerProcess();
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};
  const FILES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Fujifilm_FinePix_E500.jpg', 'orientation_landscape_1.jpg'];

  before(async () => {
    await server.start();
    browser = await launchBrowser();
    for (const f of FILES) ids[f] = await uploadAsGuest(server.url, f);
    ({ page } = await newPage(browser));
    page.on('dialog', (d) => void d.accept());
    await uiLogin(page, server.url);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  const queueCards = () => page.getByTestId('approval-card');

  test('guest uploads wait in the approval queue', async () => {
    await page.getByRole('link', { name: 'Photos', exact: true }).click();
    await page.waitForURL('**/admin/photos');
    await page.getByRole('heading', { name: /Photo Management \(5 total\)/ }).waitFor();
    await page.getByRole('button', { name: 'Approval Queue' }).click();
    await page.getByRole('heading', { name: /Photo Approval Queue \(5 pending approval\)/ }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="approval-card"]').length === 5);
    await screenshot(page, 'admin-queue');
  });

  test('Skip hides a photo for the session and "Show 1 Skipped" brings it back', async () => {
    await cardOf(page, 'approval-card', 'Canon_40D.jpg').getByRole('button', { name: 'Skip' }).click();
    await page.getByRole('button', { name: 'Show 1 Skipped' }).waitFor();
    assert.equal(await queueCards().count(), 4);
    assert.equal(await cardOf(page, 'approval-card', 'Canon_40D.jpg').count(), 0);
    await page.getByRole('button', { name: 'Show 1 Skipped' }).click();
    await cardOf(page, 'approval-card', 'Canon_40D.jpg').waitFor();
    assert.equal(await queueCards().count(), 5);
  });

  test('Approve in the queue makes the photo visible in the guest gallery', async () => {
    await cardOf(page, 'approval-card', 'Canon_40D.jpg').getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: /\(4 pending approval\)/ }).waitFor();
    assert.deepEqual(await publicIds(server.url), [ids['Canon_40D.jpg']]);
    const guest = await newPage(browser);
    await guest.page.goto(server.url + '/gallery');
    await guest.page.locator(`img[src*="${ids['Canon_40D.jpg']}"]`).first().waitFor();
    await screenshot(guest.page, 'admin-approved-in-gallery');
    await guest.context.close();
  });

  test('Reject deletes the photo after the confirmation', async () => {
    await cardOf(page, 'approval-card', 'Pentax_K10D.jpg').getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('heading', { name: /\(3 pending approval\)/ }).waitFor();
    assert.equal(await cardOf(page, 'approval-card', 'Pentax_K10D.jpg').count(), 0);
    const status = await fetch(`${server.url}/api/photos/${ids['Pentax_K10D.jpg']}/status`);
    assert.equal(status.status, 404);
  });

  test('Select Multiple and "Approve 2" approve both at once', async () => {
    await page.getByRole('button', { name: 'Select Multiple' }).click();
    await cardOf(page, 'approval-card', 'Nikon_D70.jpg').getByRole('checkbox').check();
    await cardOf(page, 'approval-card', 'Fujifilm_FinePix_E500.jpg').getByRole('checkbox').check();
    await screenshot(page, 'admin-queue-select');
    await page.getByRole('button', { name: 'Approve 2' }).click();
    await page.getByRole('heading', { name: /\(1 pending approval\)/ }).waitFor();
    assert.equal((await publicIds(server.url)).length, 3);
  });

  test('rotate swaps the dimensions shown on the card', async () => {
    await page.getByRole('button', { name: 'All Photos' }).click();
    const card = cardOf(page, 'photo-card', 'orientation_landscape_1.jpg');
    await card.getByTestId('photo-dimensions').filter({ hasText: '600 × 450' }).waitFor();
    await card.getByRole('button', { name: 'Rotate 90° clockwise' }).click();
    await card.getByTestId('photo-dimensions').filter({ hasText: '450 × 600' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'admin-rotated');
  });

  test('bulk hide hides the selected photos', async () => {
    await page.getByRole('button', { name: 'Select Photos' }).click();
    await cardOf(page, 'photo-card', 'Canon_40D.jpg').getByRole('checkbox').check();
    await cardOf(page, 'photo-card', 'Nikon_D70.jpg').getByRole('checkbox').check();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: 'Hide', exact: true }).click();
    await cardOf(page, 'photo-card', 'Nikon_D70.jpg').getByText('Hidden', { exact: true }).waitFor();
    await cardOf(page, 'photo-card', 'Canon_40D.jpg').getByText('Hidden', { exact: true }).waitFor();
    assert.deepEqual(await publicIds(server.url), [ids['Fujifilm_FinePix_E500.jpg']]);
    assert.equal(await page.getByText('2 selected').count(), 0, 'selection cleared after the list changed');
    await screenshot(page, 'admin-bulk-hidden');
  });

  test('Download fetches a link and the browser saves the original under its own name', async () => {
    const card = cardOf(page, 'photo-card', 'Canon_40D.jpg');
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download' }).click()]);
    assert.equal(download.suggestedFilename(), 'Canon_40D.jpg');
    const saved = await download.path();
    const fs = await import('node:fs');
    const { sample } = await import('../helpers/samples.js');
    assert.ok(fs.readFileSync(saved).equals(fs.readFileSync(sample('Canon_40D.jpg'))), 'original bytes');
  });

  test('on a touch phone the queue and dashboard actions are visible and thumb-sized', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const phone = await context.newPage();
    await uiLogin(phone, server.url);
    assert.equal(await phone.evaluate(() => matchMedia('(hover: none)').matches), true);
    // Recent photo actions are not hover-only on touch screens.
    const hide = phone.getByTestId('recent-photo').first().getByRole('button', { name: 'Hide' });
    await hide.waitFor();
    assert.equal(await hide.evaluate((el) => getComputedStyle(el.parentElement!).opacity), '1');
    await phone.goto(server.url + '/admin/photos');
    await phone.getByRole('button', { name: 'Approval Queue' }).click();
    const first = phone.getByTestId('approval-card').first();
    await first.waitFor();
    for (const name of ['Approve', 'Skip', 'Reject']) {
      const box = (await first.getByRole('button', { name }).boundingBox())!;
      assert.ok(box.height >= 44 && box.width >= 44, `${name}: ${box.width}x${box.height}`);
    }
    await screenshot(phone, 'admin-phone-queue');
    await context.close();
  });

  test('the dashboard shows the cards and both charts with real data', async () => {
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.getByTestId('stat-total-photos').waitFor();
    assert.match(await page.getByTestId('stat-total-photos').innerText(), /4[\s\S]*\+\d+ this week/);
    assert.match(await page.getByTestId('stat-visible-photos').innerText(), /1[\s\S]*3 pending approval/);
    assert.match(await page.getByTestId('stat-storage').innerText(), /(Bytes|KB|MB)[\s\S]*% of limit/);
    await page.getByTestId('stat-total-users').waitFor();
    // uPlot drew its canvas; the pie has one slice per camera, labelled with name and share.
    await page.locator('.upload-chart-canvas canvas').first().waitFor();
    assert.match((await page.locator('.upload-chart-canvas').getAttribute('aria-label'))!, /: [1-9]\d* in total/);
    const labels = await page.locator('.camera-pie-label').allInnerTexts();
    assert.ok(labels.some((l) => /^Canon EOS 40D \d+%$/.test(l)), labels.join(', '));
    assert.equal(await page.locator('.camera-pie-svg path').count(), labels.length);
    assert.ok((await page.locator('.activity-item').count()) > 0);
    assert.equal(await page.getByTestId('recent-photo').count(), 4);
    await screenshot(page, 'admin-dashboard');
  });
});
