import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, invalid } from '../errors.js';
import { log } from '../log.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import { buildDerivatives, MediaError, removeOldVersions, type MediaDeps } from './media.js';
import { ProcessingRepo } from './processing.repo.js';
import { JobGoneError, JobQueue, PermanentJobError, QueueStoppedError, type Job, type RegenerateStats } from './queue.js';
import { rotateOriginal } from './rotate.js';
import { configureSharp } from './sharp.js';

export type { RegenerateStats };

/**
 * The processing side of media: a job queue persisted in SQLite that reads metadata and writes
 * derivatives, plus the operations admins trigger. Every operation is a job, so one photo is
 * never worked on twice at once and a restart resumes what was under way.
 */
export interface Processing {
  /** Queue metadata + derivative work for a newly stored photo (idempotent per photo). */
  enqueue(photoId: string): Promise<void>;
  /** Rotate clockwise by 90/180/270: originals displayed rotated, derivatives rebuilt, width/height swapped. */
  rotate(photoId: string, degrees: 90 | 180 | 270): Promise<void>;
  /** Rebuild one photo's derivatives; rejects with an AppError saying why it could not. */
  regenerate(photoId: string): Promise<void>;
  /** Rebuild every photo's derivatives, one photo at a time; a photo that fails counts as failed. */
  regenerateAll(): Promise<RegenerateStats>;
  /** Resolves when no job is queued or running. */
  idle(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export interface ProcessingDeps {
  config: Config;
  paths: DataPaths;
  db: Kysely<DB>;
}

const noPhoto = () => new AppError('not_found', 'No photo with this id.');
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What a caller sees of a job that did not succeed: always an AppError. */
function asAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof JobGoneError) return noPhoto();
  if (e instanceof QueueStoppedError) return new AppError('unavailable', e.message);
  // Processing errors are readable sentences about the file.
  return new AppError('unprocessable', messageOf(e) || 'The photo could not be processed.');
}

export function createProcessing({ config, paths, db }: ProcessingDeps): Processing {
  configureSharp(config.processingConcurrency);
  const deps: MediaDeps = { paths, tools: { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath } };
  const photos = new PhotosRepo(db);

  const markError = (photoId: string, message: string) =>
    photos.markError(photoId, message).catch((e) => log.warn('Could not record a processing error', e));

  /** Rebuilds derivatives; false when the photo no longer exists. */
  const rebuild = async (photoId: string): Promise<boolean> => {
    const photo = await photos.get(photoId);
    if (!photo) return false;
    const patch = await buildDerivatives(deps, photo);
    await photos.updateMedia(photoId, patch);
    // Deleted while its derivatives were being made: leave nothing behind.
    if (!(await photos.get(photoId))) {
      await rm(path.join(paths.derived, photoId), { recursive: true, force: true });
      return false;
    }
    await removeOldVersions(paths, photoId, patch.derivative_version as number);
    return true;
  };

  const processMedia = async (photoId: string): Promise<void> => {
    try {
      await rebuild(photoId);
    } catch (e) {
      if (e instanceof MediaError) throw new PermanentJobError(e.message);
      throw e;
    }
  };

  const rotate = async (photoId: string, degrees: 90 | 180 | 270): Promise<void> => {
    const photo = await photos.get(photoId);
    if (!photo) throw noPhoto();
    await photos.updateMedia(photoId, await rotateOriginal(paths, photo, degrees));
    try {
      await rebuild(photoId);
    } catch (e) {
      await markError(photoId, messageOf(e));
      throw asAppError(e);
    }
  };

  const regenerate = async (photoId: string): Promise<void> => {
    let found: boolean;
    try {
      found = await rebuild(photoId);
    } catch (e) {
      const message = messageOf(e);
      await markError(photoId, message);
      throw new AppError('unprocessable', e instanceof MediaError ? message : `The thumbnail could not be rebuilt: ${message}`);
    }
    if (!found) throw noPhoto();
  };

  const regenerateAll = async (): Promise<RegenerateStats> => {
    const stats = { processed: 0, succeeded: 0, failed: 0 };
    // One photo at a time: thumbnails are CPU-heavy and guests keep uploading meanwhile.
    for (const id of await photos.allIds()) {
      stats.processed++;
      try {
        await queue.submit('regenerate', { photoId: id }, { photoId: id, maxAttempts: 1 });
        stats.succeeded++;
      } catch (e) {
        if (e instanceof QueueStoppedError) throw e;
        stats.failed++;
        log.warn(`Regenerating derivatives of ${id} failed: ${messageOf(e)}`);
      }
    }
    return stats;
  };

  const run = (job: Job): Promise<unknown> => {
    switch (job.type) {
      case 'process-media':
        return processMedia(job.payload.photoId);
      case 'rotate':
        return rotate(job.payload.photoId, job.payload.degrees);
      case 'regenerate':
        return regenerate(job.payload.photoId);
      case 'regenerate-all':
        return regenerateAll();
    }
  };

  const queue = new JobQueue(
    new ProcessingRepo(db),
    { concurrency: config.processingConcurrency, coordinatorTypes: ['regenerate-all'] },
    {
      run,
      async failed(job, error) {
        // Admin operations record their own errors (a refused rotation leaves the photo as it was).
        if (job.type === 'process-media') await photos.markError(job.payload.photoId, error.message);
      },
    },
  );

  /** Admin operations run once: a retried rotation would turn the photo twice. */
  const once = { maxAttempts: 1 };

  return {
    enqueue: (photoId) => queue.enqueue('process-media', { photoId }, { key: `process-media:${photoId}`, photoId }),

    async rotate(photoId, degrees) {
      if (![90, 180, 270].includes(degrees)) throw invalid('Rotation must be 90, 180 or 270 degrees.');
      const photo = await photos.get(photoId);
      if (!photo) throw noPhoto();
      if (photo.content_type.startsWith('video/')) throw invalid('Only photos can be rotated, not videos.');
      await queue.submit('rotate', { photoId, degrees }, { photoId, ...once }).catch((e) => {
        throw asAppError(e);
      });
    },

    regenerate: (photoId) =>
      queue.submit('regenerate', { photoId }, { photoId, ...once }).catch((e) => {
        throw asAppError(e);
      }),

    regenerateAll: () =>
      queue.submit('regenerate-all', {}, once).catch((e) => {
        throw asAppError(e);
      }),

    idle: () => queue.idle(),
    start: () => {
      queue.start().catch((e) => log.error('The processing queue could not start', e));
    },
    stop: () => queue.stop(),
  };
}
