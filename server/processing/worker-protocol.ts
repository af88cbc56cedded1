import type { DataPaths } from '../context.js';
import type { PhotoRow, PhotoUpdate } from '../db/schema.js';
import type { Message } from '../../common/languages.js';
import { AppError, type ErrorCode } from '../errors.js';
import type { AudioFacts } from './audio.js';
import type { KeepsakeOutcome, KeepsakePlan } from './keepsake-plan.js';
import { isMachineFailure, MachineFailure, MediaError } from './failures.js';
import { StepTimeoutError } from './limits.js';
import { ToolMissingError, type ToolName } from './tools.js';
import type { WebCopyOptions } from './video.js';

/**
 * What the server and its media worker (server/media-worker.ts) say to each other over the IPC
 * channel. Every piece of file work that takes CPU (sharp, exifr, ffmpeg, heif-convert) is an
 * operation the worker runs and answers; the server keeps the queue and the database.
 */
export interface MediaOps {
  /** Metadata and derivatives of the photo's next version (media.ts buildDerivatives). */
  derivatives(photo: PhotoRow): Promise<PhotoUpdate>;
  /** A video's re-encoded web copy (media.ts encodeWebCopy); `signal` stops the encoder, `onStart` gives its pause and resume. */
  webCopy(photo: PhotoRow, o?: Pick<WebCopyOptions, 'signal' | 'onStart' | 'onProgress'>): Promise<PhotoUpdate>;
  /** Turns an original clockwise (rotate.ts rotateOriginal). */
  rotate(photo: PhotoRow, degrees: 90 | 180 | 270): Promise<PhotoUpdate>;
  /** Similar-shot and quality measures of a photo processed before they existed (media.ts measureStored). */
  measure(photo: PhotoRow): Promise<PhotoUpdate>;
}

export type Operation = 'derivatives' | 'webCopy' | 'rotate' | 'measure';

/** Voice notes (the guestbook): files named by absolute path, outside any photo. */
export interface AudioOps {
  /** Streams and real length of an audio file (audio.ts probeAudio). */
  probeAudio(file: string): Promise<AudioFacts>;
  /** Writes the copy every browser plays to `output` (audio.ts writeAudioWebCopy); its size in bytes. */
  audioCopy(input: string, output: string, facts: AudioFacts, signal?: AbortSignal): Promise<number>;
}

/** Sent once, first: what the worker needs to know to work. */
export interface WorkerSetup {
  type: 'setup';
  paths: DataPaths;
  /** The video tools' paths and each step's time limit. */
  tools: { ffmpegPath: string; ffprobePath: string; stepMs: number };
  jobsAtOnce: number;
}

export interface WorkerRequest {
  type: 'run';
  id: number;
  op: Operation;
  photo: PhotoRow;
  degrees?: 90 | 180 | 270;
}

/** An operation on a voice note: probe (`input`), or its playable copy (`input` to `output`). */
export interface WorkerAudioRequest {
  type: 'run-audio';
  id: number;
  op: 'probe' | 'copy';
  input: string;
  output?: string;
  facts?: AudioFacts;
}

/** A keepsake (keepsakes/film.ts, book.ts): everything it needs is in the plan. */
export interface WorkerKeepsakeRequest {
  type: 'run-keepsake';
  id: number;
  plan: KeepsakePlan;
}

/** `pause`/`resume`: stop and continue an operation's running tool (a web copy's encoder). */
export type ToWorker = WorkerSetup | WorkerRequest | WorkerAudioRequest | WorkerKeepsakeRequest | { type: 'cancel' | 'pause' | 'resume'; id: number } | { type: 'stop' };

/** An error as it crosses the channel: its kind decides what it becomes on the server's side. */
export interface SentError {
  kind: 'media' | 'app' | 'machine' | 'aborted' | 'timeout' | 'tool' | 'other';
  message: string;
  /** A Node error code (ENOSPC), for kind 'app' the AppError code, for kind 'tool' the tool. */
  code?: string;
  extra?: Record<string, unknown>;
  /** For kind 'app': the catalogue sentences, so the server answers them in the reader's language. */
  sentences?: readonly Message[];
}

/**
 * `alive` comes every WORKER_HEARTBEAT_MS while the worker's event loop turns; `progress` tells
 * how many seconds of a video an operation has encoded (a keepsake: its percent done).
 */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'alive' }
  | { type: 'done'; id: number; value: PhotoUpdate | AudioFacts | KeepsakeOutcome | number }
  | { type: 'failed'; id: number; error: SentError }
  | { type: 'progress'; id: number; seconds: number };

export const WORKER_HEARTBEAT_MS = 1000;

export function sendableError(e: unknown, aborted: boolean): SentError {
  const message = e instanceof Error ? e.message : String(e);
  const code = typeof (e as { code?: unknown })?.code === 'string' ? ((e as { code: string }).code) : undefined;
  if (aborted) return { kind: 'aborted', message };
  if (e instanceof AppError) return { kind: 'app', message, code: e.code, extra: e.extra, sentences: e.sentences };
  if (e instanceof MediaError) return { kind: 'media', message };
  if (e instanceof StepTimeoutError) return { kind: 'timeout', message };
  if (e instanceof ToolMissingError) return { kind: 'tool', message, code: e.tool };
  if (isMachineFailure(e)) return { kind: 'machine', message, code };
  return { kind: 'other', message, code };
}

/** The error the server's code would have seen had it done the work itself. */
export function receivedError(sent: SentError): Error {
  switch (sent.kind) {
    case 'app':
      return new AppError(sent.code as ErrorCode, sent.sentences ?? [{ key: 'errors.processing.detail', values: { detail: sent.message } }], undefined, sent.extra);
    case 'media':
      return new MediaError(sent.message);
    case 'timeout':
      return new StepTimeoutError(sent.message);
    case 'tool':
      return new ToolMissingError(sent.code as ToolName);
    case 'machine':
      return Object.assign(new MachineFailure(sent.message), sent.code ? { code: sent.code } : {});
    case 'aborted': {
      const e = new Error(sent.message || 'The operation was aborted');
      e.name = 'AbortError';
      return e;
    }
    default:
      return Object.assign(new Error(sent.message), sent.code ? { code: sent.code } : {});
  }
}
