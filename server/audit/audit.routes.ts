import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import { invalid } from '../errors.js';
import { intParam } from '../photos/photos.params.js';
import type { AuditLog } from './audit-log.js';

const text = (v: unknown, name: string): string | undefined => {
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string' || v.length > 200) throw invalid('errors.audit.param_invalid', { name });
  return v;
};

/** GET /admin/api/audit?limit&offset&user&action (role admin only). */
export function auditRouter(auditLog: AuditLog): Router {
  const r = Router();
  r.get('/audit', requirePermission('is_admin'), async (req, res) => {
    const limit = intParam(req.query.limit, 'limit', { default: 50, min: 1, max: 200 });
    const offset = intParam(req.query.offset, 'offset', { default: 0, min: 0 });
    const user = text(req.query.user, 'user');
    const action = text(req.query.action, 'action');
    const { entries, total, actions } = await auditLog.list({ limit, offset, user, action });
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, entries, pagination: { total, limit, offset, has_more: offset + entries.length < total }, actions });
  });
  return r;
}
