import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths, Originals } from '../context.js';
import { AppError } from '../errors.js';
import { log } from '../log.js';
import { MediaError } from './failures.js';
import { asAppError, messageOf, noPhoto, throwIfMachine } from './job-errors.js';
import { PermanentJobError } from './jobs.js';
import type { PhotoRows } from './photo-rows.js';
import type { JobQueue } from './queue.js';
import { removeOldVersions } from './versions.js';
import type { MediaOps } from './worker-protocol.js';

export interface PhotoJobDeps {
  paths: DataPaths;
  photos: PhotoRows;
  /** The media worker: the CPU work on the files. */
  media: MediaOps;
  /** Tells the web copy's listeners of a video whose first derivatives make it listable. */
  transcoder: { notify(photoId: string): Promise<void> };
  /** The jobs these hand out: a video's web copy after its derivatives, a measure per photo of the backfill. */
  queue: Pick<JobQueue, 'enqueue' | 'submit'>;
  /** Originals, fetched back from the couple's bucket first when the local disk gave them up. */
  originals?: Originals;
}

/**
 * The bodies of the jobs that work on one photo's files: its derivatives (a new upload, an admin's
 * regenerate), a rotation and the similar-shot and quality measures. They run inside the queue
 * (processing.service.ts), so one photo is never worked on twice at once.
 */
export function createPhotoJobs({ paths, photos, media, transcoder, queue, originals }: PhotoJobDeps) {
  const markError = (photoId: string, message: string) =>
    photos.markError(photoId, message).catch((e) => log.warn('Could not record a processing error', e));

  const measuredListeners = new Set<(photoId: string) => Promise<void>>();
  const announceMeasured = async (photoId: string): Promise<void> => {
    for (const fn of measuredListeners) await fn(photoId).catch((e) => log.warn(`After measuring ${photoId}`, e));
  };

  /** Rebuilds derivatives; false when the photo no longer exists. */
  const rebuild = async (photoId: string): Promise<boolean> => {
    const photo = await photos.get(photoId);
    if (!photo) return false;
    // Regenerate reads the original: on the local disk again first (fetched and checked) when it left.
    await originals?.ensure(photo);
    const patch = await media.derivatives(photo);
    await photos.updateMedia(photoId, patch);
    // Deleted while its derivatives were being made: leave nothing behind.
    if (!(await photos.get(photoId))) {
      await rm(path.join(paths.derived, photoId), { recursive: true, force: true });
      return false;
    }
    const version = patch.derivative_version as number;
    await removeOldVersions(paths, photoId, version, patch.display_path ?? photo.display_path);
    if (patch.phash !== undefined) await announceMeasured(photoId);
    // A video still 'processing' needs its web copy re-encoded: a job of the one-at-a-time lane.
    if (patch.status === 'processing') {
      await queue.enqueue('transcode', { photoId, version }, { key: `transcode:${photoId}:v${version}`, photoId, maxAttempts: 2 });
    } else if (photo.display_path === null && patch.display_path && photo.content_type.startsWith('video/')) {
      await transcoder.notify(photoId);
    }
    return true;
  };

  return {
    async processMedia(photoId: string): Promise<void> {
      try {
        await rebuild(photoId);
      } catch (e) {
        if (e instanceof MediaError) throw new PermanentJobError(e.message);
        throw e;
      }
    },

    async rotate(photoId: string, degrees: 90 | 180 | 270): Promise<void> {
      const photo = await photos.get(photoId);
      if (!photo) throw noPhoto();
      // A rotation rewrites the original: fetched back from the bucket first when the local disk gave it up.
      await originals?.ensure(photo);
      await photos.updateMedia(photoId, await media.rotate(photo, degrees));
      try {
        await rebuild(photoId);
      } catch (e) {
        throwIfMachine(e);
        await markError(photoId, messageOf(e));
        throw asAppError(e);
      }
    },

    async regenerate(photoId: string): Promise<void> {
      let found: boolean;
      try {
        found = await rebuild(photoId);
      } catch (e) {
        throwIfMachine(e);
        // The bucket holding the original did not answer (503): the photo itself is fine.
        if (e instanceof AppError && (e.code === 'unavailable' || e.code === 'storage_full')) throw e;
        const message = messageOf(e);
        await markError(photoId, message);
        throw e instanceof MediaError ? new AppError('unprocessable', 'errors.processing.detail', { detail: message }) : new AppError('unprocessable', 'errors.processing.thumbnail_failed', { detail: message });
      }
      if (!found) throw noPhoto();
    },

    async measure(photoId: string): Promise<void> {
      const photo = await photos.get(photoId);
      if (!photo || photo.phash !== null || photo.status !== 'complete') return;
      const patch = await media.measure(photo);
      if (patch.phash === undefined) return;
      await photos.updateMedia(photoId, patch);
      await announceMeasured(photoId);
    },

    /** The 'measure-all' job: a measure job for each image processed before measures existed, one at a time. */
    async measureAll(): Promise<void> {
      for (const id of await photos.unmeasuredIds()) {
        await queue.submit('measure', { photoId: id }, { photoId: id, maxAttempts: 1 }).catch((e) => log.warn(`Could not measure ${id}`, e));
      }
    },

    onMeasured(fn: (photoId: string) => Promise<void>): () => void {
      measuredListeners.add(fn);
      return () => measuredListeners.delete(fn);
    },
  };
}
