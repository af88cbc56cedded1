import type { Request, Response } from 'express';
import { LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_S } from '../../common/languages.js';
import { SHIPPED } from '../i18n/messages.js';
import { cookieValue, negotiateLanguage, type LanguageSource } from '../i18n/negotiate.js';

/** The wedding's default_language, as createApp was given it (app.locals.defaultLanguage). */
function fallbackOf(req: Request): string {
  const fn = req.app?.locals?.defaultLanguage as (() => string) | undefined;
  return fn?.() ?? 'en';
}

const chosen = new WeakMap<Request, string>();

/** An API request's language (answers, errors): the cookie, else Accept-Language, else the default. */
export function languageOf(req: Request): string {
  let lang = chosen.get(req);
  if (!lang) {
    lang = negotiateLanguage({ cookie: cookieValue(req.headers.cookie, LANGUAGE_COOKIE), acceptLanguage: req.get('accept-language'), fallback: fallbackOf(req), shipped: SHIPPED }).language;
    chosen.set(req, lang);
  }
  return lang;
}

/**
 * A page's language: `?lang=` first (remembered in the cookie), then as for the API. The wall
 * speaks `?lang=` or the wedding's default, whatever the browser says.
 */
export function pageLanguage(req: Request, opts: { wall?: boolean } = {}): { language: string; source: LanguageSource } {
  const fallback = fallbackOf(req);
  if (opts.wall) return negotiateLanguage({ query: req.query.lang, fallback, shipped: SHIPPED });
  return negotiateLanguage({
    query: req.query.lang,
    cookie: cookieValue(req.headers.cookie, LANGUAGE_COOKIE),
    acceptLanguage: req.get('accept-language'),
    fallback,
    shipped: SHIPPED,
  });
}

/** Sets `wedding_lang` for 400 days (SameSite=Lax; Secure over HTTPS). */
export function rememberLanguage(req: Request, res: Response, language: string): void {
  res.cookie(LANGUAGE_COOKIE, language, { maxAge: LANGUAGE_COOKIE_MAX_AGE_S * 1000, sameSite: 'lax', secure: req.secure, path: '/', httpOnly: false });
}
