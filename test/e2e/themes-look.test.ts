import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { themeById, usableAccent } from '../../common/themes.js';
import { newPage, uiLogin } from '../helpers/browser.js';
import { localOnlyContext, openReady, sample, startThemeSite, stopThemeSite, violations, type ThemeSite } from './theme-helpers.js';

let site: ThemeSite;
before(async () => {
  site = await startThemeSite();
});
after(() => stopThemeSite(site));

/** What a guest sees of the look on the home page: colours and the fonts really drawn. */
async function lookOf(theme: string) {
  assert.equal((await site.admin.put('/admin/api/settings', { theme, accent_color: null })).status, 200);
  const context = await localOnlyContext(site, 390);
  const page = await context.newPage();
  await openReady(page, site.srv.url, '/');
  // No helper functions inside: the page runs this as it is written, without the test's transpiler helpers.
  const look = await page.evaluate(() => {
    const names = getComputedStyle(document.querySelector('.hero-names')!);
    const body = getComputedStyle(document.body);
    const button = getComputedStyle(document.querySelector('.hero-actions .btn')!);
    const serif = names.fontFamily.split(',')[0].replace(/['"]/g, '').trim();
    const sans = body.fontFamily.split(',')[0].replace(/['"]/g, '').trim();
    const loaded = [...document.fonts].filter((f) => f.status === 'loaded').map((f) => f.family.replace(/['"]/g, ''));
    return { bg: body.backgroundColor, button: button.backgroundColor, serif, sans, serifLoaded: loaded.includes(serif), sansLoaded: loaded.includes(sans) };
  });
  await context.close();
  return look;
}

test('themes really differ: page colour, button colour and the fonts drawn, all shipped with the site', async () => {
  const seen = new Map<string, Awaited<ReturnType<typeof lookOf>>>();
  for (const theme of ['sage', 'classic', 'midnight', 'blush']) {
    const look = await lookOf(theme);
    const t = themeById(theme);
    assert.equal(look.serif, t.serif.family, theme);
    assert.equal(look.sans, t.sans.family, theme);
    assert.ok(look.serifLoaded && look.sansLoaded, `${theme}: its fonts loaded from the site`);
    seen.set(theme, look);
  }
  for (const key of ['bg', 'button', 'serif'] as const) assert.equal(new Set([...seen.values()].map((l) => l[key])).size, seen.size, `${key} differs between themes`);
  assert.deepEqual(site.external, []);
});

test('the settings preview follows the chosen theme and accent live, and says what a failing accent becomes', async () => {
  assert.equal((await site.admin.put('/admin/api/settings', { theme: 'sage', accent_color: null })).status, 200);
  const { page, context } = await newPage(site.browser, { width: 1280, height: 900 });
  await uiLogin(page, site.srv.url);
  await page.goto(`${site.srv.url}/admin/settings`);
  const preview = page.getByTestId('theme-preview');
  await preview.waitFor();
  const bg = () => preview.evaluate((el) => getComputedStyle(el).getPropertyValue('--bg').trim());
  assert.equal(await bg(), themeById('sage').palette.bg);
  await page.getByLabel('Theme', { exact: true }).selectOption('midnight');
  assert.equal(await bg(), themeById('midnight').palette.bg, 'the preview changes before saving');
  await page.getByLabel('Use our own accent colour').check();
  await page.locator('input[type="color"]').fill('#ffe14d');
  const used = usableAccent(themeById('midnight'), '#ffe14d');
  assert.equal(used, '#ffe14d', 'a light yellow reads on midnight as it is');
  assert.equal(await page.getByTestId('accent-adjusted').count(), 0);
  await page.getByLabel('Theme', { exact: true }).selectOption('garden');
  const adjusted = usableAccent(themeById('garden'), '#ffe14d');
  await page.getByTestId('accent-adjusted').waitFor();
  assert.equal(await page.getByTestId('accent-adjusted').textContent(), `#ffe14d would be hard to read on this theme, so guests will see ${adjusted} instead.`);
  assert.equal(await preview.evaluate((el) => getComputedStyle(el).getPropertyValue('--accent-strong').trim()), adjusted);
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await page.locator('.toast', { hasText: 'Settings saved' }).waitFor();
  const saved = await site.admin.get('/admin/api/settings');
  assert.equal(saved.body.settings.theme, 'garden');
  assert.equal(saved.body.accent_color_used, adjusted, 'the server uses the colour the page said');
  assert.deepEqual(await violations(page), [], 'the settings page with the look section');
  await context.close();
  assert.equal((await site.admin.put('/admin/api/settings', { theme: 'sage', accent_color: null })).status, 200);
});

test('the cover photo shows above the names on the home page and on the wall while it has nothing else to show', async () => {
  const fd = new FormData();
  fd.append('file', new Blob([fs.readFileSync(sample('orientation_landscape_1.jpg'))], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await site.admin.fetch('/admin/api/settings/cover', { method: 'POST', body: fd, headers: { origin: site.srv.url } });
  assert.equal(res.status, 201);
  const context = await localOnlyContext(site, 390);
  const page = await context.newPage();
  await openReady(page, site.srv.url, '/');
  await page.locator('.hero-cover').waitFor();
  const [cover, names] = await Promise.all([page.locator('.hero-cover').boundingBox(), page.locator('.hero-names').boundingBox()]);
  assert.ok(cover && names && cover.y + cover.height <= names.y, 'the cover sits above the names');
  assert.ok(await page.locator('.hero-cover').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the cover image loaded');
  assert.deepEqual(await violations(page), []);

  // With every photo hidden, the wall shows the cover and the names.
  const gallery = await (await fetch(`${site.srv.url}/api/photos`)).json();
  for (const p of gallery.photos) assert.equal((await site.admin.post(`/admin/api/photos/${p.id}/hide`, {})).status, 200);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${site.srv.url}/wall`);
  await page.locator('.wall-empty .wall-cover-image').waitFor();
  assert.equal(await page.locator('.wall-empty h1').textContent(), 'Emma and James');
  assert.deepEqual(await violations(page), []);
  await context.close();
  for (const p of gallery.photos) await site.admin.post(`/admin/api/photos/${p.id}/approve`, {});
  assert.deepEqual(site.external, []);
});

test("the QR sign wears the wedding's theme inside the admin panel, and the tab's title carries the names", async () => {
  assert.equal((await site.admin.put('/admin/api/settings', { theme: 'rustic' })).status, 200);
  const { page, context } = await newPage(site.browser, { width: 1280, height: 900 });
  await uiLogin(page, site.srv.url);
  await page.goto(`${site.srv.url}/admin/qr`);
  const sign = page.getByTestId('qr-sign');
  await sign.locator('.qr-sign-names').waitFor();
  assert.equal(await sign.getAttribute('data-theme'), 'rustic');
  const font = await sign.locator('.qr-sign-names').evaluate((el) => getComputedStyle(el).fontFamily);
  assert.match(font, /^'?"?Alegreya/);
  assert.notEqual(await page.evaluate(() => getComputedStyle(document.body).fontFamily), font, 'the panel itself keeps its own look');
  assert.deepEqual(await violations(page), []);
  await page.goto(`${site.srv.url}/gallery`);
  await page.locator('.gallery-grid').waitFor();
  assert.equal(await page.title(), "Emma and James's wedding");
  await context.close();
  assert.equal((await site.admin.put('/admin/api/settings', { theme: 'sage' })).status, 200);
});
