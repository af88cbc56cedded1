import type { Area, Shared } from '../area.js';
import { ExportRepo } from './export.repo.js';
import { exportRouter } from './export.routes.js';
import { ExportService } from './export.service.js';

/** Streamed ZIP downloads of originals with manifest.json. */
export function createExportArea(shared: Shared): Area {
  const service = new ExportService(new ExportRepo(shared.ctx.db), shared.ctx.paths, shared.settings);
  return {
    adminApi: [exportRouter(service)],
    // Downloads may run for an hour; they can be restarted, so they do not hold up shutdown.
    closing: () => service.abortAll(),
    stop: () => service.abortAll(),
  };
}
