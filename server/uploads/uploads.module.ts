import type { Module } from '../http/module.js';
import { log } from '../log.js';
import { UploadTurns } from './turns.js';
import { uploadsRouter } from './uploads.routes.js';
import { UploadsService, type UploadsDeps } from './uploads.service.js';

const CLEANUP_EVERY_MS = 60 * 60_000;

/**
 * Guest uploads: single and chunked ingest and resume offsets; what a crash left half-done is
 * swept at start, stale partial uploads hourly.
 */
export function createUploadsModule(deps: UploadsDeps): Module & { uploads: UploadsService } {
  const uploads = new UploadsService(deps);
  const turns = new UploadTurns();
  const startedAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const sweep = () => uploads.cleanup().catch((e) => log.warn('Cleaning up stale partial uploads failed', e));

  return {
    name: 'uploads',
    uploads,
    publicApi: [uploadsRouter(uploads, turns, { maxUploadBytes: deps.config.maxUploadBytes, maxInProgress: deps.config.maxUploadRequests })],
    async start() {
      await uploads.sweepOrphans(startedAt).catch((e) => log.warn('The start-up sweep of orphaned photos and files failed', e));
      await sweep();
      timer = setInterval(sweep, CLEANUP_EVERY_MS);
      timer.unref();
    },
    closing() {
      turns.close();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await uploads.flush();
    },
  };
}
