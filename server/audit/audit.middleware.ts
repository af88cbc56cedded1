import type { RequestHandler } from 'express';
import type { AuditDetails, AuditLog } from './audit-log.js';

declare module 'express-serve-static-core' {
  interface Request {
    /**
     * Records an admin action in the audit log as done by this request's user from its address.
     * Returns at once; the entry is written after the answer. Every feature records its actions
     * with this one call: `req.audit('photo.approve', { ids: [id] })`.
     */
    audit(action: string, details?: AuditDetails): void;
  }
}

/**
 * Gives every request `req.audit(...)`; mounted after the session's user is loaded. What nobody
 * signed in does (a guest's download) is recorded once per address an hour; sign-ins keep
 * every entry (their own limiter holds them back).
 */
export function auditRequests(auditLog: AuditLog): RequestHandler {
  return (req, _res, next) => {
    req.audit = (action, details) => {
      const user = req.user ?? req.setupUser ?? null;
      const address = req.ip ?? null;
      if (!user && !action.startsWith('sign_in')) auditLog.recordAnonymous(action, address, details);
      else auditLog.record(action, { user, username: details?.username, address }, details);
    };
    next();
  };
}
