/** SPEC §8, word for word: the messages an upload can end with. */
export const MSG = {
  networkUpload: 'Network error during upload',
  networkChunk: 'Network error during chunk upload',
  timeoutUpload: 'Upload timed out after 2 minutes',
  timeoutChunk: 'Chunk upload timed out after 2 minutes',
  unavailable: 'Server temporarily unavailable',
  unexpected200: 'Unexpected 200 response',
  parse200: 'Failed to parse 200 response',
  connectionIssues: 'Connection issues - click retry to resume',
  uploadsOffTitle: 'Uploads not available',
  uploadsOff: 'Photo uploads will be available on the wedding day!',
  failedTitle: 'Upload failed',
  successTitle: 'Upload successful!',
  duplicateTitle: 'Duplicate photo detected',
} as const;

/** Not SPEC's: shown once when the browser will not keep the files across a reload. */
export const NOT_KEPT = {
  title: 'Please keep this page open',
  description: 'This browser cannot keep your files if the page is closed or reloaded, so they upload only while it stays open.',
} as const;

export function statusFailed(status: number, text: string | undefined): string {
  return `Upload failed with status ${status}: ${text || 'Unknown error'}`;
}

/** SPEC §8's retry rule: these fragments, case-insensitive. */
const RETRYABLE = ['network error', 'timeout', 'connection lost', 'chunk upload failed', 'chunk upload timed out'];

/**
 * SPEC §8 also says 502/503/504 "will retry automatically" although its sentence matches none of
 * the fragments, so it is named here. "Upload timed out after 2 minutes" matches none either and,
 * by the rule as written, is not retried automatically (the item offers Retry instead).
 */
export function isRetryable(message: string): boolean {
  const m = message.toLowerCase();
  return m === MSG.unavailable.toLowerCase() || RETRYABLE.some((f) => m.includes(f));
}

/** Raised for an upload answer the client cannot accept; `message` is SPEC's sentence. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly uploadsOff = false,
    /** Set when the server said when to come back (429/503 with Retry-After): a transient failure. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}
