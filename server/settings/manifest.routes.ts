import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import { languageOf } from '../http/language.js';
import { clientDir } from '../paths.js';
import { lookOf } from './look.js';
import { namesIn, pageTitle } from './page-head.js';
import type { SettingsService } from './settings.service.js';

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
