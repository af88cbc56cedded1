import fs from 'node:fs';
import type { RequestHandler } from 'express';
import { build } from 'locales:meta';
import { catalogueUrl, GUEST_PART, SOURCE_LANGUAGE } from '../../common/languages.js';
import { directionOf, translate } from '../i18n/messages.js';
import { pageLanguage, rememberLanguage } from './language.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The single-page client's index.html in the page's language: `<html lang dir>`, the title, and
 * a modulepreload of the language's texts, which the script waits for before its first paint,
 * so the page never shows English first. `?lang=` is remembered in the cookie.
 */
export function indexPage(indexFile: string): RequestHandler {
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
    const html = template
      .replace(/<html[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(translate(language, 'app.title'))}</title>`)
      .replace('</head>', `${preload.map((l) => `  ${l}\n`).join('')}  </head>`);
    res.set({ 'Cache-Control': 'no-cache', 'Content-Language': language, Vary: 'Cookie, Accept-Language' });
    res.type('html').send(html);
  };
}
