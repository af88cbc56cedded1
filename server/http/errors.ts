import type { ErrorRequestHandler, RequestHandler } from 'express';
import { log } from '../log.js';

/** The one error type: a status, a sentence a person can read, and optional extra fields. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const badRequest = (msg: string, extra?: Record<string, unknown>) => new HttpError(400, msg, extra);
export const notFound = (msg = 'Not found') => new HttpError(404, msg);

export const GENERIC_500 = 'Something went wrong on our side. Please try again.';

export const apiNotFound: RequestHandler = (req, res) => {
  res.status(404).json({ success: false, error: `No API route for ${req.method} ${req.path}` });
};

/** Turns any error into CONTRACT's JSON body; unknown errors are logged and answered generically. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  let status = 500;
  let message = GENERIC_500;
  let extra: Record<string, unknown> = {};
  if (err instanceof HttpError) {
    status = err.status;
    message = err.message;
    extra = err.extra;
  } else if (err?.type === 'entity.parse.failed') {
    status = 400;
    message = 'The request body is not valid JSON.';
  } else if (err?.type === 'entity.too.large') {
    status = 413;
    message = 'The request body is too large.';
  } else if (err?.name === 'MulterError') {
    status = err.code === 'LIMIT_FILE_SIZE' ? 413 : 400;
    message = err.code === 'LIMIT_FILE_SIZE' ? 'The file is too large.' : `Bad upload: ${err.message}.`;
  } else if (typeof err?.status === 'number' && err.status >= 400 && err.status < 500 && err.expose) {
    status = err.status;
    message = err.message;
  }
  if (status >= 500) log.error(`${req.method} ${req.originalUrl} failed`, err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(status).json({ success: false, error: message, ...extra });
};
