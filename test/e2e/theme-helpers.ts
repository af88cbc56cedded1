import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { uploadAsGuest } from './admin-helpers.js';

// axe-core runs inside the page, from the npm package's own file (no network).
const AXE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

export const GUEST_PAGES = ['/', '/live', '/gallery', '/wall'] as const;
export const WIDTHS = [390, 1440] as const;

/** What each page shows once it is ready to be judged. */
const READY: Record<(typeof GUEST_PAGES)[number], string> = {
  '/': '.hero-names',
  '/live': '.insights',
  '/gallery': '.gallery-grid:not([aria-busy]) li img',
  '/wall': '.wall[data-paused="false"] .wall-media, .wall-empty',
};

export interface ThemeSite {
  browser: Browser;
  srv: ServerProcess;
  admin: TestClient;
  /** Addresses the pages tried to reach off this machine (every request is routed). */
  external: string[];
}

/** Chromium and a server with an approved photo, a photo waiting, and the couple's names. */
export async function startThemeSite(): Promise<ThemeSite> {
  const [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess(undefined, { COUPLE_NAMES: 'Emma & James' }).start()]);
  const admin = new TestClient(srv.url);
  await admin.login();
  const shown = await uploadAsGuest(srv.url, 'Canon_40D.jpg');
  await uploadAsGuest(srv.url, 'Nikon_D70.jpg');
  assert.equal((await admin.post(`/admin/api/photos/${shown}/approve`, {})).status, 200);
  return { browser, srv, admin, external: [] };
}

/** A phone's screen below 600 px, a laptop's above. */
const viewport = (width: number) => ({ width, height: width < 600 ? 844 : 900 });

/** A context whose every request is checked: one for another host is refused and recorded. */
export async function localOnlyContext(site: ThemeSite, width: number): Promise<BrowserContext> {
  const context = await site.browser.newContext({ viewport: viewport(width) });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return route.continue();
    site.external.push(url.href);
    return route.abort();
  });
  return context;
}

/** Opens a guest page and waits until it shows its content with its fonts in. */
export async function openReady(page: Page, base: string, path: (typeof GUEST_PAGES)[number]): Promise<void> {
  await page.goto(base + path);
  await page.locator(READY[path]).first().waitFor({ timeout: 30_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/** Every WCAG 2.2 AA rule axe checks, as "rule: element" lines (empty when the page passes). */
export async function violations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  // Colours are judged at rest, not halfway through a transition or the wall's fade.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => (a.effect?.getTiming().iterations === Infinity ? undefined : a.finished.catch(() => undefined)))));
  const result = await page.evaluate(
    (tags) => (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: { id: string; nodes: { target: string[]; failureSummary: string }[] }[] }> } }).axe.run(document, { runOnly: { type: 'tag', values: tags } }),
    WCAG22_AA,
  );
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary}`));
}

/**
 * Every guest page at both widths in each theme: axe's WCAG 2.2 AA findings, by theme, width and
 * page. Each page is loaded once per theme, at the phone's width, judged, then widened to the
 * desktop's and judged again, as a phone turned or a window widened shows it (the styles are
 * media queries; nothing on these pages is laid out by script at load only).
 */
export async function auditThemes(site: ThemeSite, themes: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  const context = await localOnlyContext(site, WIDTHS[0]);
  const page = await context.newPage();
  try {
    for (const theme of themes) {
      assert.equal((await site.admin.put('/admin/api/settings', { theme, accent_color: null })).status, 200);
      for (const path of GUEST_PAGES) {
        await page.setViewportSize(viewport(WIDTHS[0]));
        await openReady(page, site.srv.url, path);
        const html = await page.evaluate(() => document.documentElement.dataset.theme);
        assert.equal(html, theme, `${path} arrives in ${theme}`);
        for (const [i, width] of WIDTHS.entries()) {
          if (i) {
            await page.setViewportSize(viewport(width));
            // Two frames: the new width's layout and whatever it starts are drawn.
            await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
            assert.equal(await page.evaluate(() => window.innerWidth), width);
          }
          for (const v of await violations(page)) found.push(`${theme} ${width}px ${path}: ${v}`);
        }
      }
    }
  } finally {
    await context.close();
  }
  return found;
}

export async function stopThemeSite(site: ThemeSite | undefined): Promise<void> {
  await site?.browser.close();
  await site?.srv.stop();
}

export { sample };
