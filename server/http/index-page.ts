import fs from 'node:fs';
import zlib from 'node:zlib';
import type { Request, RequestHandler, Response } from 'express';
import { build } from 'locales:meta';
import { GALLERY_FIRST_PAGE, isPlainGallery } from '../../common/gallery.js';
import { catalogueUrl, GUEST_PART, SOURCE_LANGUAGE } from '../../common/languages.js';
import { log } from '../log.js';
import { directionOf } from '../i18n/messages.js';
import { giveGuest } from './guest.js';
import { pageLanguage, rememberLanguage } from './language.js';

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What a page's head says of the wedding: its title, theme, theme colour, and the tags of its look. */
export interface PageHead {
  title: string;
  /** The theme's id, for `<html data-theme>`. */
  theme: string;
  /** `<meta name="theme-color">`. */
  color: string;
  /** Tags added to the head (the theme's fonts and custom properties). */
  head: string;
}

/**
 * What a page shows before its scripts have run, written into the element the app renders into
 * (a feature's module gives it: Module.firstScreen), with the API answers it was drawn from.
 */
export interface FirstScreen {
  /** The markup of the app's first render with these answers. */
  html: string;
  /** By address: the client takes them instead of asking (client/api/http.ts `earlyAnswer`). */
  answers: Record<string, unknown>;
  /** Run at the top of the head, before any of the app's scripts (what the markup does until the app takes over). */
  script?: string;
}

/** A feature's first screen for a page, or null when it has none for it. */
export type FirstScreenFor = (req: Request, page: { path: string; query: string; language: string }) => Promise<FirstScreen | null> | FirstScreen | null;

/**
 * The API answers a page needs for its first paint, asked for by a small script at the top of its
 * head: they travel while the scripts load and run instead of after them (the client takes them
 * once, client/api/http.ts `early`). Before the stylesheets, which an inline script would wait for.
 * `answered`: addresses whose answers are in the page already; `script`: the first screen's own.
 */
export function earlyRequests(pagePath: string, query: string, answered: readonly string[] = [], script = ''): string {
  if (pagePath.startsWith('/admin') || pagePath.startsWith('/b/')) return '';
  let urls = ['/api/settings'];
  if (isPlainGallery(pagePath, query)) urls.push(GALLERY_FIRST_PAGE, '/api/photos?limit=1&offset=0&highlights=true');
  if (pagePath === '/live') urls.push('/api/stats');
  urls = urls.filter((u) => !answered.includes(u));
  return `<script>self.__early={};for(const u of ${JSON.stringify(urls)})self.__early[u]=fetch(u,{credentials:'include'});${script}</script>`;
}

/**
 * The single-page client's index.html in the page's language and the wedding's look: `<html lang
 * dir data-theme>`, the couple's names in the title, the theme's colours and fonts, and a
 * modulepreload of the language's texts, which the script waits for before its first paint, so
 * the page never shows English first. `?lang=` is remembered in the cookie.
 */
export function indexPage(indexFile: string, pageHead: (path: string, language: string) => PageHead, firstScreens: readonly FirstScreenFor[] = []): RequestHandler {
  let template: string | undefined;
  return async (req, res, next) => {
    if (!template) {
      if (!fs.existsSync(indexFile)) return next();
      template = fs.readFileSync(indexFile, 'utf8');
    }
    const wall = req.path === '/wall';
    const { language, source } = pageLanguage(req, { wall });
    if (source === 'query') rememberLanguage(req, res, language);
    const preload =
      language === SOURCE_LANGUAGE
        ? []
        : [GUEST_PART, ...(req.path.startsWith('/admin') ? ['admin'] : [])].map((p) => `<link rel="modulepreload" href="${catalogueUrl(language, p, build)}">`);
    const page = pageHead(req.path, language);
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const screen = await firstScreenOf(firstScreens, req, { path: req.path, query, language });
    const early = earlyRequests(req.path, query, screen ? Object.keys(screen.answers) : [], screen?.script);
    const html = template
      .replace('<head>', `<head>\n    ${early}`)
      .replace(/<html[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}" data-theme="${page.theme}">`)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(page.title)}</title>`)
      .replace(/<meta name="theme-color" content="[^"]*">/, `<meta name="theme-color" content="${page.color}">`)
      .replace(/<link rel="manifest" href="[^"]*">/, '<link rel="manifest" href="/manifest.webmanifest">')
      .replace('</head>', `  ${page.head}\n${preload.map((l) => `  ${l}\n`).join('')}  </head>`)
      // Last, and as a function: names in the markup are the guests' own text.
      .replace('<div id="root"></div>', (root) => (screen ? rootWith(screen) : root));
    // A guest's browser has its guest cookie from the first page on: hearts and guestbook
    // messages sent without one count per address.
    if (!wall && !req.path.startsWith('/admin')) giveGuest(req, res);
    // A first screen carries this guest's own hearts: no shared cache may keep it for another.
    res.set({ 'Cache-Control': screen ? 'private, no-cache' : 'no-cache', 'Content-Language': language, Vary: 'Cookie, Accept-Language' });
    res.type('html');
    if (screen) sendCompressed(req, res, html);
    else res.send(html);
  };
}

/**
 * A page with a first screen is some 30 KB of markup, most of it the same icon again and again:
 * compressed (about 5 KB), a phone on a slow link has it, and its script's address at the end, sooner.
 */
function sendCompressed(req: Request, res: Response, html: string): void {
  res.vary('Accept-Encoding');
  const encoding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : null;
  if (!encoding) return void res.send(html);
  const body =
    encoding === 'br'
      ? zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(html) } })
      : zlib.gzipSync(html, { level: 6 });
  res.set('Content-Encoding', encoding).send(body);
}

/** The first of the features' screens for this page; a feature that fails leaves the page to the app. */
async function firstScreenOf(all: readonly FirstScreenFor[], req: Request, page: { path: string; query: string; language: string }): Promise<FirstScreen | null> {
  for (const screenFor of all) {
    try {
      const screen = await screenFor(req, page);
      if (screen) return screen;
    } catch (e) {
      log.warn(`The first screen of ${page.path} could not be drawn; the app draws it`, e);
    }
  }
  return null;
}

/**
 * The app's element with the first screen in it, and the answers it was drawn from as JSON (not
 * run: no script waits for the stylesheets here). The app's first render replaces the markup.
 */
const rootWith = (screen: FirstScreen) =>
  `<div id="root">${screen.html}</div>\n    <script type="application/json" id="early-answers">${JSON.stringify(screen.answers).replace(/</g, '\\u003c')}</script>`;
