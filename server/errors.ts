import type { ErrorCode } from '../common/api-types.js';

export type { ErrorCode };

/**
 * The one error the domain throws: a stable machine code the client decides on, a sentence a
 * person can read, and optional extra fields for the answer (received_bytes, failed ids...).
 * It knows nothing of HTTP: server/http/errors.ts maps each code to a status.
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const invalid = (message: string, extra?: Record<string, unknown>) => new AppError('invalid_input', message, extra);
export const notFound = (message = 'Not found') => new AppError('not_found', message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError('conflict', message, extra);
export const forbidden = (message: string) => new AppError('forbidden', message);
export const tooLarge = (message: string) => new AppError('too_large', message);
export const unsupportedType = (message: string) => new AppError('unsupported_type', message);
