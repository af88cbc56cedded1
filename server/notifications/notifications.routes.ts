import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import type { NotificationsService } from './notifications.service.js';

/** POST /admin/api/notifications/test and GET /admin/api/notifications (admins only). */
export function notificationsRouter(notifications: NotificationsService): Router {
  const r = Router();
  r.get('/notifications', requirePermission('can_edit_settings'), async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, channels: await notifications.states() });
  });
  r.post('/notifications/test', requirePermission('can_edit_settings'), async (req, res) => {
    const results = await notifications.test(req.body);
    req.audit('notifications.test', { detail: { results: results.map((x) => `${x.channel}:${x.ok ? 'ok' : 'failed'}`) } });
    res.json({ success: true, results });
  });
  return r;
}
