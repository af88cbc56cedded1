import type { Module } from '../http/module.js';
import { log } from '../log.js';
import { uploadsRouter } from './uploads.routes.js';
import { UploadsService, type UploadsDeps } from './uploads.service.js';

const CLEANUP_EVERY_MS = 60 * 60_000;

/** Guest uploads: single and chunked ingest and resume offsets; stale partial uploads are swept hourly. */
export function createUploadsModule(deps: UploadsDeps): Module {
  const uploads = new UploadsService(deps);
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => uploads.cleanup().catch((e) => log.warn('Cleaning up stale partial uploads failed', e));

  return {
    name: 'uploads',
    publicApi: [uploadsRouter(uploads, deps.config.maxUploadBytes)],
    async start() {
      await sweep();
      timer = setInterval(sweep, CLEANUP_EVERY_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
