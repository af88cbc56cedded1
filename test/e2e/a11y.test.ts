import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, ServerProcess, uiLogin } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { uploadAsGuest } from './admin-helpers.js';
import { makeVideo, waitStatus } from './guest-helpers.js';

// axe-core runs inside the page, from the npm package's own file (no network).
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

let browser: Browser;
let srv: ServerProcess;
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
  const admin = new TestClient(srv.url);
  await admin.login();
  // Something to show everywhere: a photo in the gallery, a hidden photo and a hidden video.
  const shown = await uploadAsGuest(srv.url, 'Canon_40D.jpg');
  await uploadAsGuest(srv.url, 'Nikon_D70.jpg');
  const clip = makeVideo('a11y-clip.mp4', { seconds: 2, size: '320x240' });
  const fd = new FormData();
  fd.append('session_id', 'a11y');
  fd.append('file', new Blob([fs.readFileSync(clip)], { type: 'video/mp4' }), 'a11y-clip.mp4');
  const video = await fetch(srv.url + '/api/upload', { method: 'POST', body: fd });
  assert.equal(video.status, 201);
  const { photo_id } = (await video.json()) as { photo_id: string };
  // The admin grid shows a video's play mark on its thumbnail, which exists once processing is done.
  for (let i = 0; ; i++) {
    const s = (await (await fetch(`${srv.url}/api/photos/${photo_id}/status`)).json()) as { status: string };
    if (s.status === 'complete') break;
    assert.ok(i < 600 && s.status !== 'error', `video processing: ${s.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.equal((await admin.post(`/admin/api/photos/${shown}/approve`, {})).status, 200);
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** Every WCAG 2.2 AA rule axe checks, as "rule: element" lines (empty when the page passes). */
async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  // Colours are judged at rest, not halfway through a button's hover or pressed transition.
  await page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => undefined))));
  const result = await page.evaluate(
    (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }),
    WCAG22_AA,
  );
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary}`));
}

async function check(page: Page, what: string): Promise<void> {
  assert.deepEqual(await violations(page), [], what);
}

const settled = (page: Page) => page.locator('footer').getByText("Made with care for Emma and James's wedding").waitFor({ timeout: 10_000 });

test('guest pages pass axe (WCAG 2.2 AA), with uploads, toasts, the gallery and its viewer', async () => {
  const { page, context } = await newPage(browser, { width: 360, height: 740 });
  await page.goto(srv.url + '/');
  await settled(page);
  await check(page, 'home');

  await page.goto(srv.url + '/live');
  await settled(page);
  await page.locator('.insights').waitFor();
  await check(page, '/live');
  await page.getByTestId('file-input').setInputFiles([sample('Pentax_K10D.jpg'), sample('Fujifilm_FinePix_E500.jpg')]);
  await page.locator('.toast', { hasText: 'Upload successful!' }).first().waitFor();
  await check(page, '/live uploading, with toasts');
  for (const n of ['Pentax_K10D.jpg', 'Fujifilm_FinePix_E500.jpg']) await waitStatus(page, n, 'complete');
  await check(page, '/live uploaded');

  await page.goto(srv.url + '/gallery');
  await page.locator('.gallery-grid button, .gallery-grid a').first().waitFor();
  await check(page, '/gallery');
  await page.locator('.gallery-grid button, .gallery-grid a').first().click();
  await page.getByRole('dialog').waitFor();
  await page.locator('.viewer img').first().waitFor();
  await check(page, 'gallery viewer');

  await page.goto(srv.url + '/wall');
  await page.waitForLoadState('networkidle');
  await check(page, '/wall');

  await page.goto(srv.url + '/admin/login');
  await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
  await check(page, '/admin/login');
  await page.getByPlaceholder('Enter your username').fill('nobody');
  await page.getByPlaceholder('Enter your password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('alert').waitFor();
  await check(page, '/admin/login with an error');
  await context.close();
});

test('admin pages pass axe (WCAG 2.2 AA), loading states included', async () => {
  const { page, context } = await newPage(browser, { width: 1280, height: 900 });
  await uiLogin(page, srv.url);
  await page.locator('.stat-grid').first().waitFor();
  await page.locator('.photo-thumb-play').first().waitFor(); // the video among the recent photos
  await check(page, 'dashboard');

  await page.goto(srv.url + '/admin/photos');
  await page.getByTestId('photo-card').first().waitFor();
  await page.locator('.photos-hidden-badge').waitFor();
  await page.getByTestId('photo-card').filter({ hasText: 'a11y-clip.mp4' }).waitFor();
  await check(page, 'photos (hidden badge, video)');
  await page.getByRole('button', { name: 'Select Photos' }).click();
  await page.locator('.photo-thumb-play').first().waitFor();
  await check(page, 'photos in select mode');
  await page.getByRole('button', { name: 'Exit Select Mode' }).click();
  await page.getByRole('button', { name: 'Approval Queue' }).click();
  await page.getByTestId('approval-card').first().waitFor();
  await check(page, 'approval queue');

  for (const [path, ready] of [
    ['/admin/users', 'table, .user-card'],
    ['/admin/settings', 'form'],
    ['/admin/qr', 'canvas, svg, img'],
  ]) {
    await page.goto(srv.url + path);
    await page.locator('.admin-main').locator(ready).first().waitFor();
    await check(page, path);
  }

  // While the lists load, the skeletons are announced, with no attribute their role forbids.
  // The lists' answers are held until each check is done, so it never sees the loaded page.
  let release = () => {};
  let gate = Promise.resolve();
  await page.route('**/admin/api/**', async (route) => {
    if (!route.request().url().endsWith('/admin/api/me')) await gate;
    await route.continue().catch(() => undefined);
  });
  for (const [path, label] of [
    ['/admin/dashboard', 'Loading dashboard'],
    ['/admin/photos', 'Loading photos'],
    ['/admin/users', 'Loading users'],
  ]) {
    gate = new Promise<void>((r) => (release = r));
    await page.goto(srv.url + path);
    await page.getByRole('status', { name: label }).waitFor();
    await check(page, `${path} loading`);
    release();
  }
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.close();
});

test("every page's footer Admin link lands on the login page, admin pages included", async () => {
  const guest = await newPage(browser);
  for (const path of ['/', '/live', '/gallery', '/admin/login']) {
    await guest.page.goto(srv.url + path);
    await settled(guest.page);
    const link = guest.page.locator('footer').getByRole('link', { name: 'Admin' });
    assert.equal(await link.getAttribute('href'), '/admin/login', path);
    await link.click();
    await guest.page.waitForURL(srv.url + '/admin/login');
    await guest.page.getByRole('heading', { name: 'Admin Login' }).waitFor();
  }
  await guest.context.close();

  const { page, context } = await newPage(browser);
  await uiLogin(page, srv.url);
  for (const path of ['/admin/dashboard', '/admin/photos', '/admin/users', '/admin/settings', '/admin/qr']) {
    await page.goto(srv.url + path);
    await settled(page);
    const link = page.locator('footer').getByRole('link', { name: 'Admin' });
    assert.equal(await link.getAttribute('href'), '/admin/login', path);
    // Signed in, the login page sends on to the dashboard: the link must reach /admin/login first.
    await page.evaluate(() => {
      const w = window as unknown as { paths: string[] };
      w.paths = [];
      const push = history.pushState.bind(history);
      history.pushState = (...a: Parameters<History['pushState']>) => {
        push(...a);
        w.paths.push(location.pathname);
      };
    });
    await link.click();
    await page.waitForFunction(() => (window as unknown as { paths: string[] }).paths.length > 0);
    const paths = await page.evaluate(() => (window as unknown as { paths: string[] }).paths);
    assert.equal(paths[0], '/admin/login', `${path}: the footer link went to ${paths[0]}`);
  }
  await context.close();
});
