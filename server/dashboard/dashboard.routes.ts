import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import { languageOf } from '../http/language.js';
import type { DashboardService } from './dashboard.service.js';

/** GET /admin/api/dashboard (any signed-in user; user statistics only with can_manage_users). */
export function dashboardRouter(dashboard: DashboardService): Router {
  const r = Router();
  r.get('/dashboard', requirePermission('can_view_admin'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await dashboard.build(req.user!, new Date(), languageOf(req))) });
  });
  return r;
}
