import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { ErrorCode } from '../../common/api-types.js';
import { AppError } from '../errors.js';
import { render, translate } from '../i18n/messages.js';
import { log } from '../log.js';
import { languageOf } from './language.js';

/** The one table from a domain error code to its HTTP status. */
export const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  not_signed_in: 401,
  forbidden: 403,
  two_step_required: 403,
  uploads_disabled: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unsupported_type: 415,
  range_not_satisfiable: 416,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
  storage_full: 507,
  face_search_off: 404,
  consent_required: 400,
  no_face: 422,
  downloads_off: 404,
  shot_limit_reached: 403,
  internal: 500,
};

/**
 * An error as the API answers it: status and body `{success:false, error, code, ...extra}`, the
 * sentence in `lang` (the request's language; `code` is the same in every language).
 */
export function errorAnswer(err: unknown, lang = 'en'): { status: number; body: Record<string, unknown>; headers: Record<string, string> } {
  let code: ErrorCode = 'internal';
  let message = translate(lang, 'errors.internal');
  let extra: Record<string, unknown> = {};
  const e = err as { type?: string; name?: string; code?: string; message?: string; status?: number; expose?: boolean } | undefined;
  if (err instanceof AppError) {
    code = err.code;
    const sentences = err.sentences.map((m) => render(lang, m));
    message = sentences.join(' ');
    extra = err.extra.problems === true ? { ...err.extra, problems: sentences } : err.extra;
  } else if (e?.type === 'entity.parse.failed') {
    code = 'invalid_input';
    message = translate(lang, 'errors.http.bad_json');
  } else if (e?.type === 'entity.too.large') {
    code = 'too_large';
    message = translate(lang, 'errors.http.body_too_large');
  } else if (e?.name === 'MulterError') {
    code = e.code === 'LIMIT_FILE_SIZE' ? 'too_large' : 'invalid_input';
    message = e.code === 'LIMIT_FILE_SIZE' ? translate(lang, 'errors.http.file_too_large') : translate(lang, 'errors.http.bad_upload', { detail: String(e.message) });
  } else if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && e.expose) {
    code = (Object.entries(STATUS).find(([, s]) => s === e.status)?.[0] as ErrorCode | undefined) ?? 'invalid_input';
    message = translate(lang, 'errors.http.bad_request', { detail: String(e.message ?? '') });
  }
  const headers: Record<string, string> = {};
  // Retry-After travels as an extra field of the error and becomes a header here.
  const { retry_after: retryAfter, ...rest } = extra;
  if (typeof retryAfter === 'number') headers['Retry-After'] = String(Math.max(1, Math.ceil(retryAfter)));
  return { status: STATUS[code], body: { success: false, error: message, code, ...rest }, headers };
}

/** Sends an error answer on a response that has not started. */
export function sendError(res: Response, err: unknown): void {
  const { status, body, headers } = errorAnswer(err, languageOf(res.req));
  res.status(status).set(headers).json(body);
}

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ success: false, error: translate(languageOf(req), 'errors.http.no_route', { method: req.method, path: req.path }), code: 'not_found' });
};

/** Turns any error into the contract's JSON body; unknown errors are logged (in English) and answered generically. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const answer = errorAnswer(err, languageOf(req));
  // A full disk is the operator's to fix, not a bug: one line per refusal, without a stack.
  if (answer.body.code === 'storage_full') log.warn(`${req.method} ${req.originalUrl}: ${err instanceof AppError ? err.message : answer.body.error}`);
  else if (answer.status >= 500) log.error(`${req.method} ${req.originalUrl} failed`, err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(answer.status).set(answer.headers).json(answer.body);
};
