import fs from 'node:fs';
import type { RequestHandler } from 'express';
import { build } from 'locales:meta';
import { catalogueUrl, GUEST_PART, SOURCE_LANGUAGE } from '../../common/languages.js';
import { DEFAULT_THEME, themeById, themeCss } from '../../common/themes.js';
import { directionOf, translate } from '../i18n/messages.js';
import { lookOf } from '../settings/look.js';
import { pageTitle } from '../settings/manifest.js';
import { themeFonts } from '../settings/settings.routes.js';
import type { WeddingSettings } from '../settings/settings.defaults.js';
import { pageLanguage, rememberLanguage } from './language.js';

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The page's look, written into its head so it arrives themed (no flash, no script): guest pages,
 * the wall and the QR sign's page get the wedding's theme as custom properties and its fonts'
 * stylesheet; the admin panel keeps the default look (its QR sign and preview theme themselves).
 */
type LookTags = { head: string; theme: string; color: string };
/** Made once per look (theme, accent, kind of page), not once per page served: the accent's contrast search is not free. */
const lookCache = new Map<string, LookTags>();

function lookTags(path: string, s: WeddingSettings | undefined): LookTags {
  const kind = path === '/admin/qr' ? 'sign' : path.startsWith('/admin') ? 'admin' : 'guest';
  const key = `${kind}|${s?.theme ?? ''}|${s?.accent_color ?? ''}`;
  let tags = lookCache.get(key);
  if (!tags) {
    if (lookCache.size > 50) lookCache.clear();
    lookCache.set(key, (tags = makeLookTags(path, s)));
  }
  return tags;
}

function makeLookTags(path: string, s: WeddingSettings | undefined): LookTags {
  const fonts = themeFonts();
  const admin = path.startsWith('/admin');
  const { theme, accent } = s && !admin ? lookOf(s) : { theme: themeById(DEFAULT_THEME), accent: null };
  const link = (id: string) => (fonts[id] ? `<link rel="stylesheet" href="${fonts[id].css}">` : '');
  // The QR sign follows the wedding's theme inside the panel: its fonts come too.
  const sign = path === '/admin/qr' && s ? link(lookOf(s).theme.id) : '';
  const head = admin ? link(DEFAULT_THEME) + sign : `${link(theme.id)}<style id="theme-vars">${themeCss(':root', theme, accent)}</style>`;
  return { head, theme: theme.id, color: theme.palette.bg };
}

/**
 * The single-page client's index.html in the page's language and the wedding's look: `<html lang
 * dir data-theme>`, the couple's names in the title, the theme's colours and fonts, and a
 * modulepreload of the language's texts, which the script waits for before its first paint, so
 * the page never shows English first. `?lang=` is remembered in the cookie.
 */
export function indexPage(indexFile: string, settings?: () => WeddingSettings): RequestHandler {
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
    const s = settings?.();
    const look = lookTags(req.path, s);
    const title = s ? pageTitle(language, s) : translate(language, 'app.title');
    const html = template
      .replace(/<html[^>]*>/, `<html lang="${language}" dir="${directionOf(language)}" data-theme="${look.theme}">`)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
      .replace(/<meta name="theme-color" content="[^"]*">/, `<meta name="theme-color" content="${look.color}">`)
      .replace(/<link rel="manifest" href="[^"]*">/, '<link rel="manifest" href="/manifest.webmanifest">')
      .replace('</head>', `  ${look.head}\n${preload.map((l) => `  ${l}\n`).join('')}  </head>`);
    res.set({ 'Cache-Control': 'no-cache', 'Content-Language': language, Vary: 'Cookie, Accept-Language' });
    res.type('html').send(html);
  };
}
