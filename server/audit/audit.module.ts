import type { Module } from '../http/module.js';
import type { AuditLog } from './audit-log.js';
import { auditRouter } from './audit.routes.js';

/** GET /admin/api/audit; the log itself is shared (server.ts) so every feature can record to it. */
export function createAuditModule({ auditLog }: { auditLog: AuditLog }): Module {
  return {
    name: 'audit',
    adminApi: [auditRouter(auditLog)],
    start: () => auditLog.start(),
    stop: () => auditLog.stop(),
  };
}
