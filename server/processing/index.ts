import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Shared } from '../area.js';
import { HttpError } from '../http/errors.js';
import { log } from '../log.js';
import { buildDerivatives, MediaError, removeOldVersions, type MediaDeps } from './media.js';
import { ProcessingRepo } from './processing.repo.js';
import { JobQueue, PermanentJobError } from './queue.js';
import { rotateOriginal } from './rotate.js';
import { configureSharp } from './sharp.js';

/**
 * The processing side of media: a job queue persisted in SQLite that reads metadata and writes
 * derivatives, plus the operations admins trigger.
 */
export interface Processing {
  /** Queue metadata + derivative work for a newly stored photo (idempotent per photo). */
  enqueue(photoId: string): Promise<void>;
  /** Rotate clockwise by 90/180/270: originals displayed rotated, derivatives rebuilt, width/height swapped. */
  rotate(photoId: string, degrees: 90 | 180 | 270): Promise<void>;
  /** Rebuild one photo's derivatives now; rejects with a readable Error when it cannot. */
  regenerate(photoId: string): Promise<void>;
  /** Resolves when no job is queued or running. */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export function createProcessing(shared: Omit<Shared, 'processing'>): Processing {
  const { config, paths, db } = shared.ctx;
  configureSharp(config.processingConcurrency);
  const deps: MediaDeps = { paths, tools: { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath } };
  const repo = new ProcessingRepo(db);
  const locks = new Map<string, Promise<unknown>>();

  // One operation per photo at a time (a rotation must not race the upload's own processing).
  const exclusive = <T>(photoId: string, work: () => Promise<T>): Promise<T> => {
    const run = (locks.get(photoId) ?? Promise.resolve()).catch(() => {}).then(work);
    locks.set(photoId, run);
    return run.finally(() => {
      if (locks.get(photoId) === run) locks.delete(photoId);
    });
  };

  /** Rebuilds derivatives; false when the photo no longer exists. */
  const rebuild = async (photoId: string): Promise<boolean> => {
    const photo = await repo.get(photoId);
    if (!photo) return false;
    const patch = await buildDerivatives(deps, photo);
    await repo.update(photoId, patch);
    // Deleted while its derivatives were being made: leave nothing behind.
    if (!(await repo.get(photoId))) {
      await rm(path.join(paths.derived, photoId), { recursive: true, force: true });
      return false;
    }
    await removeOldVersions(paths, photoId, patch.derivative_version as number);
    return true;
  };

  const queue = new JobQueue(db, config.processingConcurrency, {
    async run(_type, payload) {
      try {
        await exclusive(payload.photoId, () => rebuild(payload.photoId));
      } catch (e) {
        if (e instanceof MediaError) throw new PermanentJobError(e.message);
        throw e;
      }
    },
    async failed(_type, payload, error) {
      await repo.markError(payload.photoId, error.message);
    },
  });

  return {
    enqueue: (photoId) => queue.enqueue('process-media', { photoId }, { key: `process-media:${photoId}`, photoId }),

    rotate: (photoId, degrees) =>
      exclusive(photoId, async () => {
        const photo = await repo.get(photoId);
        if (!photo) throw new HttpError(404, 'No photo with this id.');
        await repo.update(photoId, await rotateOriginal(paths, photo, degrees));
        try {
          await rebuild(photoId);
        } catch (e) {
          await repo.markError(photoId, (e as Error).message);
          throw e;
        }
      }),

    regenerate: (photoId) =>
      exclusive(photoId, async () => {
        try {
          if (!(await rebuild(photoId))) throw new HttpError(404, 'No photo with this id.');
        } catch (e) {
          if (e instanceof HttpError) throw e;
          const message = (e as Error).message;
          await repo.markError(photoId, message).catch((inner) => log.warn('Could not record a processing error', inner));
          throw e instanceof MediaError ? e : new Error(`The thumbnail could not be rebuilt: ${message}`);
        }
      }),

    idle: () => queue.idle(),
    start: () => {
      queue.start().catch((e) => log.error('The processing queue could not start', e));
    },
    stop: () => queue.stop(),
  };
}
