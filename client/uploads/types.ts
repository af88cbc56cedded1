import type { Message } from '../../common/languages';

/** SPEC §4: the per-file status. */
export type UploadStatus = 'pending' | 'uploading' | 'uploaded' | 'processing' | 'complete' | 'duplicate' | 'error' | 'retrying';

/** SPEC §4: the upload box. */
export type BoxState = 'idle' | 'uploading' | 'success';

/** SPEC §3: the client-side upload item. Items are replaced, never mutated, so views can compare by identity. */
export interface UploadItem {
  readonly id: string;
  readonly file: File;
  /** A random id per file, sent as upload_id so chunks of two different "image.jpg" never mix. */
  readonly uploadId: string;
  /** The upload session the file belongs to: kept with the file so a resume after a reload finds it. */
  readonly sessionId: string;
  readonly progress: number;
  readonly status: UploadStatus;
  readonly retryCount: number;
  readonly uploadedBytes: number;
  readonly photoId: string | null;
  readonly isDuplicate: boolean;
  readonly duplicateType: string | null;
  readonly error: string | null;
  /** `error` as a catalogue message, so it shows in whatever language the page switches to. */
  readonly errorText?: Message | null;
  readonly isResumable: boolean;
  /** The photo challenge the guest picked when adding the file (sent as challenge_id), or none. */
  readonly challengeId?: string | null;
  /** A photo or video taken in the page: when (ISO 8601 with the phone's offset), sent as captured_at. */
  readonly capturedAt?: string | null;
}

export interface TransportRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: FormData;
  /** Aborted when the request outlives its 120 s. */
  signal: AbortSignal;
  /** Bytes of the request body sent so far, and the body's total. */
  onUploadProgress?: (loaded: number, total: number) => void;
}

export interface TransportResponse {
  status: number;
  statusText: string;
  body: string;
  /** The Retry-After header (seconds or an HTTP date), when the answer has one. */
  retryAfter?: string | null;
}

/**
 * A fetch-like function. It resolves with any HTTP answer and rejects only when no answer came
 * (network failure or abort). The browser uses XMLHttpRequest (upload progress); tests pass a fake.
 */
export type Transport = (req: TransportRequest) => Promise<TransportResponse>;

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface Notice {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive' | 'success';
}
