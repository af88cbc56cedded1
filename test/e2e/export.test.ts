import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { tempDir } from '../helpers/server.js';
import { run } from '../server/export-fixtures.js';
import { cardOf, uploadAsGuest } from './admin-helpers.js';

/** The download buttons in real Chromium: the browser itself receives the streamed ZIP. */
describe('export buttons in a browser', () => {
  const server = new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' });
  const work = tempDir('wedding-export-e2e-');
  let browser: Browser;
  let page: Page;
  const ids: Record<string, string> = {};
  const FILES = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'];

  before(async () => {
    await server.start();
    browser = await launchBrowser();
    for (const f of FILES) ids[f] = await uploadAsGuest(server.url, f);
    ({ page } = await newPage(browser));
    await uiLogin(page, server.url);
  });
  after(async () => {
    await browser?.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  /** Clicks, waits for the browser's download, checks it with unzip and returns its manifest. */
  async function downloadVia(click: () => Promise<void>): Promise<{ name: string; manifest: any }> {
    const [download] = await Promise.all([page.waitForEvent('download'), click()]);
    const file = path.join(work, download.suggestedFilename());
    await download.saveAs(file);
    const t = await run('unzip', ['-t', file]);
    assert.equal(t.code, 0, t.stdout + t.stderr);
    const m = await run('unzip', ['-p', file, 'manifest.json']);
    return { name: download.suggestedFilename(), manifest: JSON.parse(m.stdout) };
  }

  test('"Download all" on the dashboard downloads every original, hidden ones too', async () => {
    await page.getByRole('link', { name: 'Download all' }).waitFor();
    await screenshot(page, 'export-dashboard-buttons');
    const { name, manifest } = await downloadVia(() => page.getByRole('link', { name: 'Download all' }).click());
    assert.match(name, /^Emma-and-James-wedding-photos-\d{4}-\d{2}-\d{2}\.zip$/);
    assert.deepEqual(new Set(manifest.files.map((f: any) => f.id)), new Set(Object.values(ids)));
    assert.ok(manifest.files.every((f: any) => f.is_visible === false), 'uploads start hidden');
    // The page stayed where it was.
    assert.match(page.url(), /\/admin\/dashboard$/);
  });

  test('"Download selected (2)" on the photos page posts the selection as a form', async () => {
    await page.getByRole('link', { name: 'Photos', exact: true }).click();
    await page.waitForURL('**/admin/photos');
    await page.getByRole('button', { name: 'Show Visible Only' }).waitFor(); // all photos listed, hidden ones too
    await cardOf(page, 'photo-card', 'Pentax_K10D.jpg').waitFor();
    await page.getByRole('button', { name: 'Select Photos' }).click();
    await cardOf(page, 'photo-card', 'Canon_40D.jpg').locator('input[type="checkbox"]').check();
    await cardOf(page, 'photo-card', 'Pentax_K10D.jpg').locator('input[type="checkbox"]').check();
    const button = page.getByRole('button', { name: 'Download selected (2)' });
    await button.waitFor();
    await screenshot(page, 'export-selected-button');
    const { name, manifest } = await downloadVia(() => button.click());
    assert.match(name, /wedding-photos-selected-/);
    assert.deepEqual(new Set(manifest.files.map((f: any) => f.id)), new Set([ids['Canon_40D.jpg'], ids['Pentax_K10D.jpg']]));
    assert.match(page.url(), /\/admin\/photos$/);
  });

  test('signed out meanwhile: the error shows as a toast and the page stays', async () => {
    await page.goto(server.url + '/admin/dashboard');
    await page.getByRole('link', { name: 'Download visible' }).waitFor();
    await page.context().clearCookies();
    await page.getByRole('link', { name: 'Download visible' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please sign in to continue.' }).waitFor();
    await screenshot(page, 'export-signed-out-toast');
    assert.match(page.url(), /\/admin\/dashboard$/);
  });
});
