import type { Message, MessageValues } from '../../common/languages';
import { t, tIn } from '../i18n';

/**
 * SPEC §8: the messages an upload can end with, as catalogue keys (en.po has SPEC's sentences
 * word for word). Shown in the page's language; the retry rule reads their English.
 */
export const MSG = {
  networkUpload: 'upload.error.network',
  networkChunk: 'upload.error.network_chunk',
  timeoutUpload: 'upload.error.timeout',
  timeoutChunk: 'upload.error.timeout_chunk',
  unavailable: 'upload.error.unavailable',
  unexpected200: 'upload.error.unexpected_200',
  parse200: 'upload.error.parse_200',
  connectionIssues: 'upload.status.connection_issues',
  uploadsOffTitle: 'upload.off.title',
  uploadsOff: 'upload.off.text',
  failedTitle: 'upload.toast.failed',
  successTitle: 'upload.toast.success',
  duplicateTitle: 'upload.toast.duplicate',
} as const;

/** Not SPEC's: shown once when the browser will not keep the files across a reload. */
export const NOT_KEPT = {
  get title() {
    return t('upload.not_kept.title');
  },
  get description() {
    return t('upload.not_kept.text');
  },
};

/** "Upload failed with status N: {text or Unknown error}" (the text is the server's, in the page's language). */
export function statusFailed(status: number, text: string | undefined): Message {
  return text ? { key: 'upload.error.status', values: { status, text } } : { key: 'upload.error.status_unknown', values: { status } };
}

/** SPEC §8's retry rule: these fragments, case-insensitive. */
const RETRYABLE = ['network error', 'timeout', 'connection lost', 'chunk upload failed', 'chunk upload timed out'];

/**
 * SPEC §8 also says 502/503/504 "will retry automatically" although its sentence matches none of
 * the fragments, so it is named here. "Upload timed out after 2 minutes" matches none either and,
 * by the rule as written, is not retried automatically (the item offers Retry instead). The rule
 * reads the English sentence, whatever language the page shows.
 */
export function isRetryable(message: string): boolean {
  const m = message.toLowerCase();
  return m === tIn('en', MSG.unavailable).toLowerCase() || RETRYABLE.some((f) => m.includes(f));
}

/** Raised for an upload answer the client cannot accept; `message` is SPEC's sentence in the page's language. */
export class UploadError extends Error {
  /** The sentence in English, for the retry rule. */
  readonly english: string;
  readonly text: Message;

  constructor(
    text: Message | string,
    readonly uploadsOff = false,
    /** Set when the server said when to come back (429/503 with Retry-After): a transient failure. */
    readonly retryAfterMs?: number,
  ) {
    const m: Message = typeof text === 'string' ? { key: text } : text;
    const values = m.values as Record<string, string | number> | undefined;
    super(t(m.key, values));
    this.text = m;
    this.english = tIn('en', m.key, values);
  }
}

export type { MessageValues };
