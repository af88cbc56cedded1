import { Router, type RequestHandler } from 'express';
import type { DataPaths } from '../context.js';
import { readMultipart } from '../http/multipart.js';
import { coverFile, removeReplacedCovers, storeCover } from './cover.js';
import type { SettingsService } from './settings.service.js';

/** POST and DELETE /admin/api/settings/cover; `answer` shapes the settings answer. */
export function adminCoverRouter(settings: SettingsService, paths: DataPaths, guard: RequestHandler, answer: RequestHandler): Router {
  removeReplacedCovers(settings, paths);
  const r = Router();
  r.post('/settings/cover', guard, async (req, res, next) => {
    const id = await storeCover(paths, (onFile) => readMultipart(req, onFile));
    await settings.setCoverImage(id);
    req.audit('settings.cover_upload', { ids: [id] });
    res.status(201);
    answer(req, res, next);
  });
  r.delete('/settings/cover', guard, async (req, res, next) => {
    await settings.setCoverImage(null);
    req.audit('settings.cover_remove');
    answer(req, res, next);
  });
  return r;
}

/** GET /api/cover/<id>.webp: the uploaded cover (its name changes with every upload, so it caches long). */
export function publicCoverRouter(paths: DataPaths): Router {
  const r = Router();
  r.get('/cover/:file', (req, res, next) => {
    const file = coverFile(paths, String(req.params.file));
    if (!file) return next();
    res.sendFile(file, { maxAge: '365d', immutable: true }, (err) => err && next());
  });
  return r;
}
