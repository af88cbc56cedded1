import type { Module } from '../http/module.js';
import { adminSettingsRouter, publicSettingsRouter, type SettingsGuard } from './settings.routes.js';
import type { SettingsService } from './settings.service.js';

/** The wedding content: public GET /api/settings, admin GET/PUT /admin/api/settings. */
export function createSettingsModule({ settings, guard }: { settings: SettingsService; guard?: SettingsGuard }): Module {
  return { name: 'settings', publicApi: [publicSettingsRouter(settings)], adminApi: [adminSettingsRouter(settings, guard)] };
}
