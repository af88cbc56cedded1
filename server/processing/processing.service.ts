import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import { localOriginals, type DataPaths, type Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import { invalid } from '../errors.js';
import { log } from '../log.js';
import { EncodeLane } from './encode-lane.js';
import { missingTool } from './failures.js';
import { asAppError, noPhoto } from './job-errors.js';
import { MediaWorker } from './media-worker-client.js';
import { createPhotoJobs } from './photo-jobs.js';
import type { PhotoRows } from './photo-rows.js';
import { ProcessingRepo } from './processing.repo.js';
import { JobQueue, type Job, type RegenerateStats } from './queue.js';
import { RegenerateAll, type RegenerateAllAnswer } from './regenerate-all.js';
import { watchTools } from './tool-watch.js';
import type { ToolName } from './tools.js';
import { createTranscoder } from './transcode.js';
import { createVoiceNotes, type VoiceNotes } from './voice-notes.js';
import type { KeepsakeOutcome, KeepsakePlan } from './keepsake-plan.js';

/** Makes a keepsake in the media worker; `onProgress` gets its percent done; `signal` stops it at once (its tool killed, its partial files removed). */
export type MakeKeepsake = (plan: KeepsakePlan, onProgress: (percent: number) => void, signal?: AbortSignal) => Promise<KeepsakeOutcome>;

/** What the keepsakes module does with its jobs. */
export interface KeepsakeRunner {
  run(keepsakeId: string, make: MakeKeepsake): Promise<void>;
  failed(keepsakeId: string, error: Error): Promise<void>;
}

/** How often a keepsake being made looks whether other jobs wait (it pauses for them). */
const YIELD_CHECK_MS = 500;

export type { RegenerateStats };

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
  /** Tools processing needs that are not installed (looked for at start and every TOOL_CHECK_MS, tool-watch.ts). */
  missingTools(): readonly ToolName[];
  /** Calls `fn` when an upload ends up "could not be processed". */
  onFailed(fn: (photoId: string) => Promise<void>): () => void;
  /** Calls `fn` with a tool's name (ffmpeg, ffprobe, heif-convert) when it could not be started because it is not installed. */
  onToolMissing(fn: (tool: string) => void): () => void;
  /** Calls `fn` whenever an image got new similar-shot and quality measures (processing, rotation, the backfill). */
  onMeasured(fn: (photoId: string) => Promise<void>): () => void;
  /** Measures, one at a time in the queue, every image processed before measures existed. */
  measureAll(): Promise<void>;
  /** Films and photo books: queued at the lowest priority, made by the media worker, paused while other jobs wait. */
  keepsakes: {
    enqueue(keepsakeId: string): Promise<void>;
    handle(runner: KeepsakeRunner): () => void;
  };
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
  /** The photos' rows, which processing fills in. */
  photos: PhotoRows;
  /** Originals, fetched back from the couple's bucket when the local disk gave them up (rotate, regenerate, web copies). */
  originals?: Originals;
}

export function createProcessing({ config, paths, db, photos, originals = localOriginals(paths) }: ProcessingDeps): Processing {
  // The CPU work (sharp, exifr, ffmpeg) runs in a child process below the requests' priority.
  const tools = { ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, stepMs: config.processingStepMs };
  const worker = new MediaWorker({ paths, tools, jobsAtOnce: config.processingConcurrency });
  const lane = new EncodeLane();
  const transcoder = createTranscoder({ paths, media: worker, lane, originals }, photos);
  const voiceNotes = createVoiceNotes(worker, (entryId, within) =>
    queue.enqueue('voice-copy', { entryId }, { key: `voice-copy:${entryId}`, within, maxAttempts: 3 }),
  );

  const regenerating = new RegenerateAll(config.regenerateAnswerMs);
  // One photo at a time: thumbnails are CPU-heavy and guests keep uploading meanwhile.
  const regenerateAll = async (): Promise<RegenerateStats> =>
    regenerating.run(await photos.allIds(), (id) => queue.submit('regenerate', { photoId: id }, { photoId: id, maxAttempts: 1 }));

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

  let keepsakeRunner: KeepsakeRunner | undefined;
  /** A keepsake in the worker, paused whenever another job is running or ready, resumed once none is. */
  const makeKeepsake: MakeKeepsake = async (plan, onProgress, signal) => {
    let tool: { pause(): void; resume(): void } | undefined;
    let paused = false;
    let looking = false;
    const timer = setInterval(() => {
      if (looking || !tool) return;
      looking = true;
      queue
        .othersBusy()
        .then((busy) => {
          if (busy !== paused) {
            paused = busy;
            if (busy) tool?.pause();
            else tool?.resume();
          }
        })
        .catch(() => undefined)
        .finally(() => (looking = false));
    }, YIELD_CHECK_MS);
    try {
      return await worker.makeKeepsake(plan, { onStart: (t) => (tool = t), onProgress, signal });
    } finally {
      clearInterval(timer);
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
        return photoJobs.processMedia(job.payload.photoId);
      case 'rotate':
        return photoJobs.rotate(job.payload.photoId, job.payload.degrees);
      case 'regenerate':
        return photoJobs.regenerate(job.payload.photoId);
      case 'regenerate-all':
        return regenerateAll();
      case 'transcode':
        return transcoder.run(job.payload.photoId, job.payload.version, job.id);
      case 'measure':
        return photoJobs.measure(job.payload.photoId);
      case 'measure-all':
        return photoJobs.measureAll();
      case 'voice-copy':
        return voiceNotes.run(job.payload.entryId);
      case 'keepsake':
        if (!keepsakeRunner) throw new Error('Keepsakes are not set up.');
        return keepsakeRunner.run(job.payload.keepsakeId, makeKeepsake);
    }
  };

  const queue = new JobQueue(
    new ProcessingRepo(db),
    { concurrency: config.processingConcurrency, coordinatorTypes: ['regenerate-all', 'measure-all'], soloTypes: ['transcode'], soloLane: lane, idleTypes: ['keepsake'] },
    {
      run,
      async failed(job, error) {
        // Admin operations record their own errors (a refused rotation leaves the photo as it was).
        if (job.type === 'process-media' || job.type === 'transcode') {
          await photos.markError(job.payload.photoId, error.message);
          for (const fn of failedListeners) await fn(job.payload.photoId).catch((e) => log.warn(`After the failure of ${job.payload.photoId}`, e));
        }
        if (job.type === 'voice-copy') await voiceNotes.failed(job.payload.entryId, error);
        if (job.type === 'keepsake') await keepsakeRunner?.failed(job.payload.keepsakeId, error);
      },
    },
  );
  const photoJobs = createPhotoJobs({ paths, photos, media: worker, transcoder, queue, originals });
  const toolWatch = watchTools(config, () => queue.unpark());

  /** Admin operations run once: a retried rotation would turn the photo twice. */
  const once = { maxAttempts: 1 };

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
    missingTools: () => toolWatch.missing(),
    onFailed(fn) {
      failedListeners.add(fn);
      return () => failedListeners.delete(fn);
    },
    onToolMissing(fn) {
      toolListeners.add(fn);
      return () => toolListeners.delete(fn);
    },
    onMeasured: (fn) => photoJobs.onMeasured(fn),
    async measureAll() {
      if ((await photos.unmeasuredIds(1)).length === 0) return;
      // One backfill at a time: a restart while one runs resumes that one (its key is taken).
      await queue.enqueue('measure-all', {}, { key: `measure-all:${await photos.unmeasuredIds(1).then((ids) => ids[0])}`, maxAttempts: 3 });
    },
    keepsakes: {
      enqueue: (keepsakeId) => queue.enqueue('keepsake', { keepsakeId }, { key: `keepsake:${keepsakeId}`, maxAttempts: 2 }),
      handle(runner) {
        keepsakeRunner = runner;
        return () => {
          if (keepsakeRunner === runner) keepsakeRunner = undefined;
        };
      },
    },
    voiceNotes: voiceNotes.api,
    idle: () => queue.idle(),
    start: () => {
      toolWatch.start();
      worker.start();
      transcoder.start();
      voiceNotes.start();
      queue.start().catch((e) => log.error('The processing queue could not start', e));
    },
    async stop() {
      toolWatch.stop();
      transcoder.stop();
      voiceNotes.stop();
      await queue.stop();
      await worker.stop();
    },
  };
}
