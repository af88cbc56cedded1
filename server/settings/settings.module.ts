import type { DataPaths } from '../context.js';
import { requirePermission } from '../auth/auth.middleware.js';
import type { Module } from '../http/module.js';
import { adminCoverRouter, publicCoverRouter } from './cover.routes.js';
import { appManifestRouter } from './manifest.routes.js';
import { adminSettingsRouter, publicSettingsRouter, settingsAnswer, type SettingsGuard } from './settings.routes.js';
import type { SettingsService } from './settings.service.js';

/**
 * The wedding content and look: public GET /api/settings and /api/cover, admin GET/PUT
 * /admin/api/settings and POST/DELETE /admin/api/settings/cover, and the web app manifest.
 */
export function createSettingsModule({ settings, paths, guard }: { settings: SettingsService; paths: DataPaths; guard?: SettingsGuard }): Module {
  return {
    name: 'settings',
    publicApi: [publicSettingsRouter(settings), publicCoverRouter(paths)],
    adminApi: [adminSettingsRouter(settings, guard), adminCoverRouter(settings, paths, requirePermission('can_edit_settings'), settingsAnswer(settings))],
    root: [appManifestRouter(settings)],
  };
}
