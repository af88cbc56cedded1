import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import type { NotificationsService } from './notifications.service.js';

/** POST /admin/api/notifications/test and GET /admin/api/notifications (admins only). */
export function notificationsRouter(notifications: NotificationsService): Router {
  const r = Router();
  // Mounted first among the admin routers, so it sees every signed-in request: links in messages
  // point where the admin panel is reached when PUBLIC_URL is not set.
  r.use((req, _res, next) => {
    if (req.user && req.host) notifications.sawAdminAt(`${req.protocol}://${req.host}`);
    next();
  });
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
