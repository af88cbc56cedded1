import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import type { SettingsService } from './settings.service.js';

/** GET /api/settings (public) */
export function publicSettingsRouter(settings: SettingsService): Router {
  const r = Router();
  r.get('/settings', async (_req, res) => {
    res.json({ success: true, settings: await settings.get() });
  });
  return r;
}

/** PUT /admin/api/settings (admin only); GET for the settings page. */
export function adminSettingsRouter(settings: SettingsService): Router {
  const r = Router();
  r.get('/settings', requirePermission('can_edit_settings'), async (_req, res) => {
    res.json({ success: true, settings: await settings.get() });
  });
  r.put('/settings', requirePermission('can_edit_settings'), async (req, res) => {
    res.json({ success: true, settings: await settings.update(req.body) });
  });
  return r;
}
