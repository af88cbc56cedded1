import { Router, type Request, type RequestHandler } from 'express';
import type { AdminSettingsResponse, LanguageInfo, PublicSettingsResponse, WeddingSettings } from '../../common/api-types.js';
import { THEMES } from '../../common/themes.js';
import { FRAMES } from '../../common/frames.js';
import { LANGUAGES } from '../../common/languages.js';
import { requirePermission } from '../auth/auth.middleware.js';
import { languageOf } from '../http/language.js';
import { SHIPPED, translate } from '../i18n/messages.js';
import { lookOf } from './look.js';
import { themeFonts } from './page-head.js';
import { matchTag } from '../i18n/negotiate.js';
import type { AuthUser } from '../auth/permissions.js';
import { adminSettings, publicSettings, type SettingsService } from './settings.service.js';
import type { SiteSettings } from './settings.defaults.js';
import { resolveSettings } from './translations.js';

/** Checks a change before it is saved (two-step may be required only by an admin who has it). */
export type SettingsGuard = (body: Record<string, unknown>, user: AuthUser) => Promise<void>;

const shipped: LanguageInfo[] = LANGUAGES.filter((l) => SHIPPED.includes(l.code)).map((l) => ({ code: l.code, name: l.name, dir: l.dir }));

/** What guests read: the couple's texts in `lang` (else the default language's), without the other languages'. */
function publicAnswer(s: WeddingSettings, lang: string, cover: string | null): PublicSettingsResponse {
  const { translations: _all, ...resolved } = resolveSettings(s, lang);
  return { success: true, settings: resolved, cover_url: cover, language: lang, default_language: s.default_language, languages: shipped };
}

async function adminAnswer(settings: SettingsService, req: Request, s?: SiteSettings): Promise<AdminSettingsResponse> {
  const v = s ?? (await settings.get());
  const lang = languageOf(req);
  const fonts = themeFonts();
  return {
    success: true,
    settings: adminSettings(v),
    themes: THEMES.map((t) => ({ id: t.id, name: translate(lang, t.nameKey), fonts_css: fonts[t.id]?.css ?? null })),
    frames: FRAMES.map((f) => ({ id: f.id, name: translate(lang, f.nameKey) })),
    accent_color_used: lookOf(v).accent,
    cover_url: await settings.coverUrl(v),
  };
}

/**
 * GET /api/settings (public), in the request's language (cookie, else Accept-Language, else the
 * default); `?lang=` asks for one language's texts outright (a QR sign in that language).
 */
export function publicSettingsRouter(settings: SettingsService): Router {
  const r = Router();
  r.get('/settings', async (req, res) => {
    const lang = matchTag(req.query.lang, SHIPPED) ?? languageOf(req);
    const s = await settings.get();
    res.set('Vary', 'Cookie, Accept-Language').json(publicAnswer(publicSettings(s), lang, await settings.coverUrl(s)));
  });
  return r;
}

/** The settings page's answer: the settings, the themes to choose from, the accent in use and the cover. */
export const settingsAnswer =
  (settings: SettingsService): RequestHandler =>
  async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await adminAnswer(settings, req));
  };

/** PUT /admin/api/settings (admin only); GET for the settings page. */
export function adminSettingsRouter(settings: SettingsService, guard?: SettingsGuard): Router {
  const r = Router();
  r.get('/settings', requirePermission('can_edit_settings'), settingsAnswer(settings));
  r.put('/settings', requirePermission('can_edit_settings'), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (guard && typeof body === 'object' && !Array.isArray(body)) await guard(body, req.user!);
    // Links in notifications point where the admin who sets them up reaches the panel (when PUBLIC_URL is not set).
    const saved = await settings.update(body, req.host ? `${req.protocol}://${req.host}` : undefined);
    // Which settings were sent, never their values (the notification addresses hold secrets).
    req.audit('settings.update', { detail: { keys: Object.keys(body).slice(0, 50) } });
    res.json(await adminAnswer(settings, req, saved));
  });
  return r;
}
