import { Router } from 'express';
import type { LanguageInfo, PublicSettingsResponse, WeddingSettings } from '../../common/api-types.js';
import { LANGUAGES } from '../../common/languages.js';
import { requirePermission } from '../auth/auth.middleware.js';
import { languageOf } from '../http/language.js';
import { SHIPPED } from '../i18n/messages.js';
import { matchTag } from '../i18n/negotiate.js';
import type { AuthUser } from '../auth/permissions.js';
import { adminSettings, publicSettings, type SettingsService } from './settings.service.js';
import { resolveSettings } from './translations.js';

/** Checks a change before it is saved (two-step may be required only by an admin who has it). */
export type SettingsGuard = (body: Record<string, unknown>, user: AuthUser) => Promise<void>;

const shipped: LanguageInfo[] = LANGUAGES.filter((l) => SHIPPED.includes(l.code)).map((l) => ({ code: l.code, name: l.name, dir: l.dir }));

/** What guests read: the couple's texts in `lang` (else the default language's), without the other languages'. */
function publicAnswer(s: WeddingSettings, lang: string): PublicSettingsResponse {
  const { translations: _all, ...resolved } = resolveSettings(s, lang);
  return { success: true, settings: resolved, language: lang, default_language: s.default_language, languages: shipped };
}

/**
 * GET /api/settings (public), in the request's language (cookie, else Accept-Language, else the
 * default); `?lang=` asks for one language's texts outright (a QR sign in that language).
 */
export function publicSettingsRouter(settings: SettingsService): Router {
  const r = Router();
  r.get('/settings', async (req, res) => {
    const lang = matchTag(req.query.lang, SHIPPED) ?? languageOf(req);
    res.set('Vary', 'Cookie, Accept-Language').json(publicAnswer(publicSettings(await settings.get()), lang));
  });
  return r;
}

/** PUT /admin/api/settings (admin only); GET for the settings page. */
export function adminSettingsRouter(settings: SettingsService, guard?: SettingsGuard): Router {
  const r = Router();
  r.get('/settings', requirePermission('can_edit_settings'), async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, settings: adminSettings(await settings.get()) });
  });
  r.put('/settings', requirePermission('can_edit_settings'), async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (guard && typeof body === 'object' && !Array.isArray(body)) await guard(body, req.user!);
    const saved = await settings.update(body);
    // Which settings were sent, never their values (the notification addresses hold secrets).
    req.audit('settings.update', { detail: { keys: Object.keys(body).slice(0, 50) } });
    res.json({ success: true, settings: adminSettings(saved) });
  });
  return r;
}
