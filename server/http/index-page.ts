import fs from 'node:fs';
import type { RequestHandler } from 'express';
import { build } from 'locales:meta';
import { catalogueUrl, GUEST_PART, SOURCE_LANGUAGE } from '../../common/languages.js';
import { directionOf } from '../i18n/messages.js';
import { giveGuest } from './guest.js';
import { pageLanguage, rememberLanguage } from './language.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

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
 * The API answers a page needs for its first paint, asked for by a small script at the top of its
 * head: they travel while the scripts load and run instead of after them (the client takes them
 * once, client/api/http.ts `early`). Before the stylesheets, which an inline script would wait for.
 */
export function earlyRequests(pagePath: string, query: string): string {
  if (pagePath.startsWith('/admin') || pagePath.startsWith('/b/')) return '';
  const urls = ['/api/settings'];
  // The plain gallery (an address with a filter or order asks for other photos).
  if (pagePath === '/gallery' && !/(^|&)(moment|sort|highlights|challenge|table|only)=/.test(query))
    urls.push('/api/photos?limit=20&offset=0', '/api/photos?limit=1&offset=0&highlights=true');
  if (pagePath === '/live') urls.push('/api/stats');
  return `<script>self.__early={};for(const u of ${JSON.stringify(urls)})self.__early[u]=fetch(u,{credentials:'include'})</script>`;
}

/**
 * The single-page client's index.html in the page's language and the wedding's look: `<html lang
 * dir data-theme>`, the couple's names in the title, the theme's colours and fonts, and a
 * modulepreload of the language's texts, which the script waits for before its first paint, so
 * the page never shows English first. `?lang=` is remembered in the cookie.
 */
export function indexPage(indexFile: string, pageHead: (path: string, language: string) => PageHead): RequestHandler {
  let template: string | undefined;
  return (req, res, next) => {
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
    const early = earlyRequests(req.path, req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '');
    const html = template
      .replace('<head>', `<head>\n    ${early}`)
      .replace(/<html[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}" data-theme="${page.theme}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
      .replace(/<meta name="theme-color" content="[^"]*">/, `<meta name="theme-color" content="${page.color}">`)
      .replace(/<link rel="manifest" href="[^"]*">/, '<link rel="manifest" href="/manifest.webmanifest">')
      .replace('</head>', `  ${page.head}\n${preload.map((l) => `  ${l}\n`).join('')}  </head>`);
    // A guest's browser has its guest cookie from the first page on: hearts and guestbook
    // messages sent without one count per address.
    if (!wall && !req.path.startsWith('/admin')) giveGuest(req, res);
    res.set({ 'Cache-Control': 'no-cache', 'Content-Language': language, Vary: 'Cookie, Accept-Language' });
    res.type('html').send(html);
  };
}
