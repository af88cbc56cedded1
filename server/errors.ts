import type { ErrorCode } from '../common/api-types.js';
import type { Message, MessageValues } from '../common/languages.js';
import { inEnglish } from './i18n/english.js';

export type { ErrorCode };

/**
 * The one error the domain throws: a stable machine code the client decides on, the sentence a
 * person reads as a catalogue key with its values (the answer gives it in the reader's language,
 * server/http/errors.ts), and optional extra fields for the answer (received_bytes, failed ids...).
 * `message` is the English sentence, for the log. It knows nothing of HTTP.
 */
export class AppError extends Error {
  /** One sentence, or several (each problem of a form); each a complete sentence in the catalogue. */
  readonly sentences: readonly Message[];

  constructor(
    readonly code: ErrorCode,
    sentence: string | Message | readonly Message[],
    values?: MessageValues,
    readonly extra: Record<string, unknown> = {},
  ) {
    const sentences = typeof sentence === 'string' ? [{ key: sentence, values }] : Array.isArray(sentence) ? sentence : [sentence as Message];
    super(sentences.map((m) => inEnglish(m.key, m.values)).join(' '));
    this.sentences = sentences;
    this.name = 'AppError';
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** `throw invalid('errors.users.id_not_number')`; with values: `invalid('errors.export.too_many', { max: 500 })`. */
type Sentence = string | Message;

export const invalid = (key: Sentence, values?: MessageValues, extra?: Record<string, unknown>) => new AppError('invalid_input', key, values, extra);
/** A form's problems, every one listed (the answer also carries them as `problems`). */
export const invalidAll = (problems: readonly Message[]) => new AppError('invalid_input', problems, undefined, { problems: true });
export const notFound = (key: Sentence = 'errors.not_found', values?: MessageValues) => new AppError('not_found', key, values);
export const conflict = (key: Sentence, values?: MessageValues, extra?: Record<string, unknown>) => new AppError('conflict', key, values, extra);
export const forbidden = (key: Sentence, values?: MessageValues) => new AppError('forbidden', key, values);
export const tooLarge = (key: Sentence, values?: MessageValues) => new AppError('too_large', key, values);
export const unsupportedType = (key: Sentence, values?: MessageValues) => new AppError('unsupported_type', key, values);
