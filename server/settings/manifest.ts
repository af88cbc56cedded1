import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { languageOf } from '../http/language.js';
import { translate } from '../i18n/messages.js';
import { clientDir } from '../paths.js';
import { lookOf } from './look.js';
import type { SettingsService } from './settings.service.js';
import type { WeddingSettings } from './settings.defaults.js';

/** "Emma and James" in `lang`. */
export const namesIn = (lang: string, s: Pick<WeddingSettings, 'couple_names'>) => translate(lang, 'app.couple_names', { first: s.couple_names[0], second: s.couple_names[1] });

/** A page's title: "Emma and James's wedding" in `lang`. */
export const pageTitle = (lang: string, s: Pick<WeddingSettings, 'couple_names'>) => translate(lang, 'app.title_couple', { names: namesIn(lang, s) });

/**
 * GET /manifest.webmanifest: the build's manifest (icons, start page) with the couple's names and
 * their theme's colours, so a guest's home-screen icon is called after the wedding.
 */
export function appManifestRouter(settings: SettingsService): Router {
  const r = Router();
  let built: Record<string, unknown> | undefined;
  r.get('/manifest.webmanifest', async (req, res, next) => {
    if (!built) {
      const file = path.join(clientDir(), 'app-manifest.json');
      if (!fs.existsSync(file)) return next();
      built = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    }
    const s = await settings.get();
    const lang = languageOf(req);
    const { theme } = lookOf(s);
    const manifest = {
      ...built,
      name: pageTitle(lang, s),
      short_name: namesIn(lang, s),
      lang,
      background_color: theme.palette.bg,
      theme_color: theme.palette.bg,
    };
    res.set({ 'Cache-Control': 'no-cache', Vary: 'Cookie, Accept-Language' }).type('application/manifest+json').send(JSON.stringify(manifest));
  });
  return r;
}
