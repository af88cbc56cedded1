import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_THEME, themeById, themeCss } from '../../common/themes.js';
import type { PageHead } from '../http/index-page.js';
import { translate } from '../i18n/messages.js';
import { clientDir } from '../paths.js';
import { lookOf } from './look.js';
import type { WeddingSettings } from './settings.defaults.js';

/** "Emma and James" in `lang`. */
export const namesIn = (lang: string, s: Pick<WeddingSettings, 'couple_names'>) => translate(lang, 'app.couple_names', { first: s.couple_names[0], second: s.couple_names[1] });

/** A page's title: "Emma and James's wedding" in `lang`. */
export const pageTitle = (lang: string, s: Pick<WeddingSettings, 'couple_names'>) => translate(lang, 'app.title_couple', { names: namesIn(lang, s) });

/** Each theme's font stylesheet as the build wrote it (dist/client/themes.json); empty before a build. */
type ThemeFonts = Record<string, { css: string; bytes: { latin: number; all: number } }>;
let fontsTable: ThemeFonts | undefined;
export function themeFonts(): ThemeFonts {
  if (fontsTable) return fontsTable;
  const file = path.join(clientDir(), 'themes.json');
  if (!fs.existsSync(file)) return {};
  return (fontsTable = JSON.parse(fs.readFileSync(file, 'utf8')) as ThemeFonts);
}

/**
 * The page's look, written into its head so it arrives themed (no flash, no script): guest pages,
 * the wall and the QR sign's page get the wedding's theme as custom properties and its fonts'
 * stylesheet; the admin panel keeps the default look (its QR sign and preview theme themselves).
 */
type LookTags = Omit<PageHead, 'title'>;
/** Made once per look (theme, accent, kind of page), not once per page served: the accent's contrast search is not free. */
const lookCache = new Map<string, LookTags>();

function lookTags(pagePath: string, s: WeddingSettings | undefined): LookTags {
  const kind = pagePath === '/admin/qr' ? 'sign' : pagePath.startsWith('/admin') ? 'admin' : 'guest';
  const key = `${kind}|${s?.theme ?? ''}|${s?.accent_color ?? ''}`;
  let tags = lookCache.get(key);
  if (!tags) {
    if (lookCache.size > 50) lookCache.clear();
    lookCache.set(key, (tags = makeLookTags(pagePath, s)));
  }
  return tags;
}

function makeLookTags(pagePath: string, s: WeddingSettings | undefined): LookTags {
  const fonts = themeFonts();
  const admin = pagePath.startsWith('/admin');
  const { theme, accent } = s && !admin ? lookOf(s) : { theme: themeById(DEFAULT_THEME), accent: null };
  const link = (id: string) => (fonts[id] ? `<link rel="stylesheet" href="${fonts[id].css}">` : '');
  // The QR sign follows the wedding's theme inside the panel: its fonts come too.
  const sign = pagePath === '/admin/qr' && s ? link(lookOf(s).theme.id) : '';
  const head = admin ? link(DEFAULT_THEME) + sign : `${link(theme.id)}<style id="theme-vars">${themeCss(':root', theme, accent)}</style>`;
  return { head, theme: theme.id, color: theme.palette.bg };
}

/** The page at `pagePath` in `language` with the wedding's names and look; before the settings are read, the default look. */
export function pageHead(pagePath: string, language: string, s: WeddingSettings | undefined): PageHead {
  return { ...lookTags(pagePath, s), title: s ? pageTitle(language, s) : translate(language, 'app.title') };
}
