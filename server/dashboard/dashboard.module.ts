import type { Kysely } from 'kysely';
import type { ChannelState } from '../../common/security-types.js';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import type { Processing } from '../processing/processing.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UsersService } from '../users/users.service.js';
import { dashboardRouter } from './dashboard.routes.js';
import { DashboardService, type DashboardDeps } from './dashboard.service.js';
import type { DiskUsage } from './disk-usage.js';

export interface DashboardModuleDeps {
  config: Config;
  disk: DiskUsage;
  db: Kysely<DB>;
  users: UsersService;
  processing: Pick<Processing, 'missingTools'>;
  notifyStates?: () => Promise<ChannelState[]>;
  settings: SettingsService;
  offsite?: DashboardDeps['offsite'];
}

/** GET /admin/api/dashboard. */
export function createDashboardModule({ config, disk, db, users, processing, settings, notifyStates, offsite }: DashboardModuleDeps): Module {
  const dashboard = new DashboardService({
    disk,
    db,
    users,
    settings,
    storageLimitBytes: config.storageLimitBytes,
    missingTools: () => processing.missingTools(),
    notifyStates,
    offsite,
  });
  return { name: 'dashboard', adminApi: [dashboardRouter(dashboard)] };
}
