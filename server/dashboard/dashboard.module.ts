import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import type { UsersService } from '../users/users.service.js';
import { dashboardRouter } from './dashboard.routes.js';
import { DashboardService } from './dashboard.service.js';

export interface DashboardModuleDeps {
  config: Config;
  paths: DataPaths;
  db: Kysely<DB>;
  users: UsersService;
}

/** GET /admin/api/dashboard. */
export function createDashboardModule({ config, paths, db, users }: DashboardModuleDeps): Module {
  const dashboard = new DashboardService({ paths, db, users, storageLimitBytes: config.storageLimitBytes });
  return { name: 'dashboard', adminApi: [dashboardRouter(dashboard)] };
}
