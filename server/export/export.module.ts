import type { Kysely } from 'kysely';
import { localOriginals, type DataPaths, type Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import type { Module } from '../http/module.js';
import type { SettingsService } from '../settings/settings.service.js';
import { ExportRepo } from './export.repo.js';
import { exportRouter } from './export.routes.js';
import { guestDownloadsRouter } from './guest-downloads.routes.js';
import { ExportService } from './export.service.js';

/** Streamed ZIP downloads of originals with manifest.json (GET/POST /admin/api/export.zip). */
export function createExportModule(deps: { db: Kysely<DB>; paths: DataPaths; settings: SettingsService; originals?: Originals }): Module {
  const repo = new ExportRepo(deps.db);
  const originals = deps.originals ?? localOriginals(deps.paths);
  const service = new ExportService(repo, deps.paths, deps.settings, originals);
  return {
    name: 'export',
    adminApi: [exportRouter(service)],
    publicApi: [guestDownloadsRouter({ service, repo, paths: deps.paths, settings: deps.settings, originals })],
    // Downloads may run for an hour; they can be restarted, so they do not hold up shutdown.
    closing: () => service.abortAll(),
    stop: () => service.abortAll(),
  };
}
