import { rm } from 'node:fs/promises';
import path from 'node:path';
import { log } from '../log.js';
import type { DataPaths, Originals } from '../context.js';
import type { EncodeLane } from './encode-lane.js';
import { MediaError } from './failures.js';
import type { PhotoRows } from './photo-rows.js';
import { PermanentJobError, QueueStoppedError } from './queue.js';
import { removeOldVersions } from './versions.js';
import type { MediaOps } from './worker-protocol.js';

export type WebCopyListener = (photoId: string) => Promise<void>;

/**
 * The 'transcode' job: a video's re-encoded web copy, made in the queue's solo lane by ffmpeg at
 * the lowest CPU priority, one encoder running at a time, shortest clip first (encode-lane.ts).
 * Stopping the server kills the encoders (paused ones too); the job stays queued and starts over
 * after the next start.
 */
export function createTranscoder(deps: { paths: DataPaths; media: MediaOps; lane: EncodeLane; originals?: Originals }, photos: PhotoRows) {
  let stopping = new AbortController();
  const listeners = new Set<WebCopyListener>();

  async function run(photoId: string, version: number, jobId: number): Promise<void> {
    const photo = await photos.get(photoId);
    // Deleted, or regenerated since: a newer job makes the copy of the newer version.
    if (!photo || photo.derivative_version !== version) return;
    const first = photo.display_path === null;
    // The video itself, fetched back first when the local disk gave it up.
    await deps.originals?.ensure(photo);
    const signal = stopping.signal;
    let patch;
    try {
      patch = await deps.media.webCopy(photo, {
        signal,
        onStart: (tool) => deps.lane.attach(jobId, tool),
        onProgress: (seconds) => deps.lane.progress(jobId, seconds),
      });
    } catch (e) {
      if (signal.aborted) throw new QueueStoppedError('The server is shutting down.');
      if (e instanceof MediaError) throw new PermanentJobError(e.message);
      throw e;
    }
    await photos.updateMedia(photoId, patch);
    if (!(await photos.get(photoId))) {
      await rm(path.join(deps.paths.derived, photoId), { recursive: true, force: true });
      return;
    }
    await removeOldVersions(deps.paths, photoId, version);
    if (first) await notify(photoId);
  }

  /** Listed from now on: live screens hear of a video approved while it was being prepared. */
  async function notify(photoId: string): Promise<void> {
    for (const fn of listeners) await fn(photoId).catch((err) => log.warn(`After the web copy of ${photoId}`, err));
  }

  return {
    run,
    notify,
    /** Calls `fn` when a video's first web copy exists (it is listed in the gallery from then on). */
    onWebCopy(fn: WebCopyListener): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    start(): void {
      if (stopping.signal.aborted) stopping = new AbortController();
    },
    /** Kills a running encoder. */
    stop(): void {
      stopping.abort();
    },
  };
}
