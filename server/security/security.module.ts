import type { FailureLimiter } from '../auth/rate-limit.js';
import type { Config } from '../config.js';
import type { Module } from '../http/module.js';
import type { SettingsService } from '../settings/settings.service.js';
import { securityRouter } from './security.routes.js';
import type { SecurityService } from './security.service.js';

/** /admin/api/security...: passkeys and authenticator codes of the signed-in account. */
export function createSecurityModule(d: { security: SecurityService; settings: SettingsService; config: Config; limiter: FailureLimiter }): Module {
  return { name: 'security', adminApi: [securityRouter(d.security, d.settings, d.config, d.limiter)] };
}
