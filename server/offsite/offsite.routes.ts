import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import { languageOf } from '../http/language.js';
import { translate } from '../i18n/messages.js';
import type { OffsiteService } from './offsite.service.js';

/**
 * GET /admin/api/offsite (any signed-in user): the copy's status. GET/PUT /admin/api/offsite/settings
 * and POST /admin/api/offsite/test: role admin only; the secret is never sent back.
 */
export function offsiteRouter(offsite: OffsiteService): Router {
  const r = Router();
  r.get('/offsite', requirePermission('can_view_admin'), async (req, res) => {
    const lang = languageOf(req);
    res.set('Cache-Control', 'no-store');
    const status = await offsite.status((key, values) => translate(lang, key, values));
    res.json({ success: true, ...status, ...(req.user!.permissions.is_admin ? { settings: offsite.view() } : {}) });
  });
  r.put('/offsite', requirePermission('is_admin'), async (req, res) => {
    const settings = await offsite.save(req.body);
    const lang = languageOf(req);
    res.json({ success: true, settings, ...(await offsite.status((key, values) => translate(lang, key, values))) });
  });
  r.post('/offsite/test', requirePermission('is_admin'), async (req, res) => {
    const result = await offsite.test(req.body);
    const lang = languageOf(req);
    res.set('Cache-Control', 'no-store');
    res.json(result.ok ? { success: true, ok: true } : { success: true, ok: false, problem: result.problem, message: translate(lang, result.message.key, result.message.values) });
  });
  return r;
}
