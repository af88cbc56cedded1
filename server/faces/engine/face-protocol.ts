import type { Box } from './boxes.js';

/**
 * What the server and a face worker (server/face-worker.ts) say over the IPC channel. The worker
 * holds the networks and, in memory only, the codes of the gallery's faces it has seen; the server
 * keeps the guests' codes, the matches and the scan's order.
 */
export interface FaceSetup {
  type: 'setup';
  /** Detection levels (faces-in-picture.ts DEFAULT_LEVELS when absent). */
  levels?: number[];
  /** The engine as it was before its speed-ups (benchmarks' baseline: faces-in-picture.ts DetectionPlan). */
  baseline?: boolean;
}

/** A selfie's bytes, straight from the request's memory (a HEIC too is decoded there: no file is ever written). */
export interface SelfieRequest {
  type: 'selfie';
  id: number;
  bytes: Uint8Array;
  heic: boolean;
}

/** A gallery picture: the file to read and, when an earlier scan measured them, its face boxes. */
export interface PictureRequest {
  type: 'picture';
  id: number;
  /** Identifies the file's content (its path names its version): the in-memory codes are kept under it. */
  key: string;
  file: string;
  boxes: Box[] | null;
}

/**
 * A gallery picture's face boxes only, measured ahead of any guest's scan while the search is on:
 * no face code is made, nothing is remembered.
 */
export interface BoxesRequest {
  type: 'boxes';
  id: number;
  file: string;
}

export type ToFaceWorker = FaceSetup | SelfieRequest | PictureRequest | BoxesRequest | { type: 'forget' } | { type: 'stop' };

export interface PictureAnswer {
  /** Relative boxes (0-1), null when they came from the caller or the memory. */
  boxes: Box[] | null;
  /** The codes of the picture's usable faces. */
  codes: Float32Array[];
  /** Whether the detector ran (false: boxes given, or codes remembered). */
  detected: boolean;
}

export type FromFaceWorker =
  | { type: 'ready' }
  | { type: 'done'; id: number; value: PictureAnswer | { code: Float32Array | null } | { boxes: Box[] } }
  | { type: 'failed'; id: number; message: string; unreadable: boolean };
