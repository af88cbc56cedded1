import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, invalid } from '../errors.js';
import { log } from '../log.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import { isMachineFailure, missingTool } from './failures.js';
import { MediaError } from './failures.js';
import { MediaWorker } from './media-worker-client.js';
import { ProcessingRepo } from './processing.repo.js';
import { JobGoneError, JobQueue, PermanentJobError, QueueStoppedError, type Job, type RegenerateStats } from './queue.js';
import { RegenerateAll, type RegenerateAllAnswer } from './regenerate-all.js';
import { EncodeLane } from './encode-lane.js';
import { HEIF_CONVERT, missingToolLog, missingTools, ToolMissingError, type ToolName, type ToolPaths } from './tools.js';
import { createTranscoder } from './transcode.js';
import { removeOldVersions } from './versions.js';
import { createVoiceNotes, type VoiceNotes } from './voice-notes.js';

export type { RegenerateStats };

/** How often missing tools are looked for again: once installed, the files waiting for them go on without a restart. */
export const TOOL_CHECK_MS = 30_000;

/**
 * The processing side of media: a job queue persisted in SQLite that reads metadata and writes
 * derivatives, plus the operations admins trigger. Every operation is a job, so one photo is
 * never worked on twice at once and a restart resumes what was under way.
 */
export interface Processing {
  /** Queue metadata + derivative work for a newly stored photo (idempotent per photo); `within` the photo's own transaction. */
  enqueue(photoId: string, within?: Kysely<DB>): Promise<void>;
  /** Rotate clockwise by 90/180/270: originals displayed rotated, derivatives rebuilt, width/height swapped. */
  rotate(photoId: string, degrees: 90 | 180 | 270): Promise<void>;
  /** Rebuild one photo's derivatives; rejects with an AppError saying why it could not. */
  regenerate(photoId: string): Promise<void>;
  /**
   * Rebuild every photo's derivatives, one photo at a time; a photo that fails counts as failed.
   * Conflict while one runs; answers after at most REGENERATE_ANSWER_S with the statistics so far.
   */
  regenerateAll(): Promise<RegenerateAllAnswer>;
  /**
   * Calls `fn` with the photo's id whenever a job working on an upload (not an admin's rotate or
   * regenerate) has finished; returns the unsubscribe function.
   */
  onProcessed(fn: (photoId: string) => Promise<void>): () => void;
  /** Calls `fn` when a video's first web copy exists: from then on it is listed (gallery, wall). */
  onWebCopy(fn: (photoId: string) => Promise<void>): () => void;
  /** Tools processing needs that are not installed (looked for at start and every TOOL_CHECK_MS). */
  missingTools(): readonly ToolName[];
  /** Calls `fn` when an upload ends up "could not be processed". */
  onFailed(fn: (photoId: string) => Promise<void>): () => void;
  /** Calls `fn` with a tool's name (ffmpeg, ffprobe, heif-convert) when it could not be started because it is not installed. */
  onToolMissing(fn: (tool: string) => void): () => void;
  /** Calls `fn` whenever an image got new similar-shot and quality measures (processing, rotation, the backfill). */
  onMeasured(fn: (photoId: string) => Promise<void>): () => void;
  /** Measures, one at a time in the queue, every image processed before measures existed. */
  measureAll(): Promise<void>;
  /** The guestbook's voice notes: read while a request waits, playable copies made as jobs. */
  voiceNotes: VoiceNotes;
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

const noPhoto = () => new AppError('not_found', 'errors.photos.no_such_id');

/**
 * A full disk or a tool that would not start is no fault of the photo: nothing is recorded on it,
 * the admin tries again later. A missing tool goes on as it is: the job waits for the tool.
 */
function throwIfMachine(e: unknown): void {
  if (e instanceof ToolMissingError) throw e;
  if (isMachineFailure(e)) {
    throw new AppError('unavailable', 'errors.processing.short_of_resources', undefined, { retry_after: 60 });
  }
}
const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What a caller sees of a job that did not succeed: always an AppError. */
function asAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof JobGoneError) return noPhoto();
  if (e instanceof QueueStoppedError) return new AppError('unavailable', 'errors.processing.stopping', undefined, { retry_after: 10 });
  if (e instanceof ToolMissingError) return new AppError('unavailable', 'errors.processing.waiting_for_tool', { tool: e.tool });
  // Processing errors are readable sentences about the file (in English, as processing writes them).
  const detail = messageOf(e);
  return detail ? new AppError('unprocessable', 'errors.processing.detail', { detail }) : new AppError('unprocessable', 'errors.processing.failed');
}

export function createProcessing({ config, paths, db }: ProcessingDeps): Processing {
  // The CPU work (sharp, exifr, ffmpeg) runs in a child process below the requests' priority.
  const tools = { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, stepMs: config.processingStepMs };
  const worker = new MediaWorker({ paths, tools, jobsAtOnce: config.processingConcurrency });
  const photos = new PhotosRepo(db);
  const lane = new EncodeLane();
  const transcoder = createTranscoder({ paths, media: worker, lane }, photos);
  const voiceNotes = createVoiceNotes(worker, (entryId, within) =>
    queue.enqueue('voice-copy', { entryId }, { key: `voice-copy:${entryId}`, within, maxAttempts: 3 }),
  );

  const markError = (photoId: string, message: string) =>
    photos.markError(photoId, message).catch((e) => log.warn('Could not record a processing error', e));

  /** Rebuilds derivatives; false when the photo no longer exists. */
  const rebuild = async (photoId: string): Promise<boolean> => {
    const photo = await photos.get(photoId);
    if (!photo) return false;
    const patch = await worker.derivatives(photo);
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
    await photos.updateMedia(photoId, await worker.rotate(photo, degrees));
    try {
      await rebuild(photoId);
    } catch (e) {
      throwIfMachine(e);
      await markError(photoId, messageOf(e));
      throw asAppError(e);
    }
  };

  const regenerate = async (photoId: string): Promise<void> => {
    let found: boolean;
    try {
      found = await rebuild(photoId);
    } catch (e) {
      throwIfMachine(e);
      const message = messageOf(e);
      await markError(photoId, message);
      throw e instanceof MediaError ? new AppError('unprocessable', 'errors.processing.detail', { detail: message }) : new AppError('unprocessable', 'errors.processing.thumbnail_failed', { detail: message });
    }
    if (!found) throw noPhoto();
  };

  const regenerating = new RegenerateAll(config.regenerateAnswerMs);
  // One photo at a time: thumbnails are CPU-heavy and guests keep uploading meanwhile.
  const regenerateAll = async (): Promise<RegenerateStats> =>
    regenerating.run(await photos.allIds(), (id) => queue.submit('regenerate', { photoId: id }, { photoId: id, maxAttempts: 1 }));

  const measuredListeners = new Set<(photoId: string) => Promise<void>>();
  const announceMeasured = async (photoId: string): Promise<void> => {
    for (const fn of measuredListeners) await fn(photoId).catch((e) => log.warn(`After measuring ${photoId}`, e));
  };
  const measure = async (photoId: string): Promise<void> => {
    const photo = await photos.get(photoId);
    if (!photo || photo.phash !== null || photo.status !== 'complete') return;
    const patch = await worker.measure(photo);
    if (patch.phash === undefined) return;
    await photos.updateMedia(photoId, patch);
    await announceMeasured(photoId);
  };
  const measureAll = async (): Promise<void> => {
    for (const id of await photos.unmeasuredIds()) {
      await queue.submit('measure', { photoId: id }, { photoId: id, maxAttempts: 1 }).catch((e) => log.warn(`Could not measure ${id}`, e));
    }
  };

  const processedListeners = new Set<(photoId: string) => Promise<void>>();
  const ADMIN_JOBS: readonly string[] = ['rotate', 'regenerate', 'regenerate-all', 'measure', 'measure-all'];
  const announceProcessed = async (job: Job): Promise<void> => {
    const photoId = (job.payload as { photoId?: string }).photoId;
    if (!photoId || ADMIN_JOBS.includes(job.type)) return;
    for (const fn of processedListeners) {
      // What listeners do (auto-approval) must never make the finished job look failed.
      await fn(photoId).catch((e) => log.warn(`After processing ${photoId}`, e));
    }
  };

  const failedListeners = new Set<(photoId: string) => Promise<void>>();
  const toolListeners = new Set<(tool: string) => void>();

  const run = async (job: Job): Promise<unknown> => {
    let result: unknown;
    try {
      result = await runJob(job);
    } catch (e) {
      const tool = missingTool(e);
      if (tool) for (const fn of toolListeners) fn(tool);
      throw e;
    }
    await announceProcessed(job);
    return result;
  };

  const runJob = (job: Job): Promise<unknown> => {
    switch (job.type) {
      case 'process-media':
        return processMedia(job.payload.photoId);
      case 'rotate':
        return rotate(job.payload.photoId, job.payload.degrees);
      case 'regenerate':
        return regenerate(job.payload.photoId);
      case 'regenerate-all':
        return regenerateAll();
      case 'transcode':
        return transcoder.run(job.payload.photoId, job.payload.version, job.id);
      case 'measure':
        return measure(job.payload.photoId);
      case 'measure-all':
        return measureAll();
      case 'voice-copy':
        return voiceNotes.run(job.payload.entryId);
    }
  };

  const queue = new JobQueue(
    new ProcessingRepo(db),
    { concurrency: config.processingConcurrency, coordinatorTypes: ['regenerate-all', 'measure-all'], soloTypes: ['transcode'], soloLane: lane },
    {
      run,
      async failed(job, error) {
        // Admin operations record their own errors (a refused rotation leaves the photo as it was).
        if (job.type === 'process-media' || job.type === 'transcode') {
          await photos.markError(job.payload.photoId, error.message);
          for (const fn of failedListeners) await fn(job.payload.photoId).catch((e) => log.warn(`After the failure of ${job.payload.photoId}`, e));
        }
        if (job.type === 'voice-copy') await voiceNotes.failed(job.payload.entryId, error);
      },
    },
  );

  /** Admin operations run once: a retried rotation would turn the photo twice. */
  const once = { maxAttempts: 1 };

  // Missing tools are named at start (log, dashboard); files that need one wait for it (the queue parks their jobs).
  const toolPaths: ToolPaths = { ffmpeg: config.ffmpegPath, ffprobe: config.ffprobePath, 'heif-convert': HEIF_CONVERT };
  let missing: ToolName[] = [];
  let toolCheck: NodeJS.Timeout | undefined;
  const lookForTools = () => {
    const now = missingTools(toolPaths);
    const found = missing.filter((t) => !now.includes(t));
    missing = now;
    if (!found.length) return;
    log.info(`${found.join(' and ')} found: the files waiting for it are prepared now`);
    queue.unpark().catch((e) => log.warn('Could not restart the files waiting for a tool', e));
  };

  return {
    enqueue: (photoId, within) => queue.enqueue('process-media', { photoId }, { key: `process-media:${photoId}`, photoId, within }),

    async rotate(photoId, degrees) {
      if (![90, 180, 270].includes(degrees)) throw invalid('errors.processing.bad_rotation');
      const photo = await photos.get(photoId);
      if (!photo) throw noPhoto();
      if (photo.content_type.startsWith('video/')) throw invalid('errors.processing.rotate_video');
      await queue.submit('rotate', { photoId, degrees }, { photoId, ...once }).catch((e) => {
        throw asAppError(e);
      });
    },

    regenerate: (photoId) =>
      queue.submit('regenerate', { photoId }, { photoId, ...once }).catch((e) => {
        throw asAppError(e);
      }),

    regenerateAll: () =>
      regenerating.request(() =>
        queue.submit('regenerate-all', {}, once).catch((e) => {
          throw asAppError(e);
        }),
      ),

    onProcessed(fn) {
      processedListeners.add(fn);
      return () => processedListeners.delete(fn);
    },
    onWebCopy: (fn) => transcoder.onWebCopy(fn),
    missingTools: () => missing,
    onFailed(fn) {
      failedListeners.add(fn);
      return () => failedListeners.delete(fn);
    },
    onToolMissing(fn) {
      toolListeners.add(fn);
      return () => toolListeners.delete(fn);
    },
    onMeasured(fn) {
      measuredListeners.add(fn);
      return () => measuredListeners.delete(fn);
    },
    async measureAll() {
      if ((await photos.unmeasuredIds(1)).length === 0) return;
      // One backfill at a time: a restart while one runs resumes that one (its key is taken).
      await queue.enqueue('measure-all', {}, { key: `measure-all:${await photos.unmeasuredIds(1).then((ids) => ids[0])}`, maxAttempts: 3 });
    },
    voiceNotes: voiceNotes.api,
    idle: () => queue.idle(),
    start: () => {
      missing = missingTools(toolPaths);
      for (const t of missing) log.warn(missingToolLog(t));
      toolCheck = setInterval(lookForTools, TOOL_CHECK_MS).unref();
      worker.start();
      transcoder.start();
      voiceNotes.start();
      queue.start().catch((e) => log.error('The processing queue could not start', e));
    },
    async stop() {
      clearInterval(toolCheck);
      transcoder.stop();
      voiceNotes.stop();
      await queue.stop();
      await worker.stop();
    },
  };
}
