import type { Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import type { Readable } from 'node:stream';
import { AppError, isAppError } from '../errors.js';
import { errorAnswer } from './errors.js';
import { languageOf } from './language.js';

/** A form's text fields, name -> last value. */
export type Fields = Record<string, string>;

/** How far the request carrying a file part has come in (the pacer ranks uploads by it). */
export interface BodyProgress {
  /** True once the request's last byte has come in from the network (the rest is in memory). */
  arrived(): boolean;
  /** Bytes of the request not yet read from the connection. */
  remaining(): number;
  /** When the request began (performance.now()). */
  since: number;
  /** The body's declared length (Content-Length); undefined when it does not say (chunked encoding). */
  length?: number;
}

/** Gets the first file part (with the fields sent before it and how far the request has come in) and must consume it. */
export type OnFile = (file: Readable, filename: string, fieldsSoFar: Fields, body: BodyProgress) => Promise<void>;

/** What the current request does with its file part; multer's engine is shared, the handler is per request. */
const handlers = new WeakMap<Request, OnFile>();
/** The name of the file part the current request wants, when it is not "file". */
const fileFields = new WeakMap<Request, string>();

/**
 * A storage engine that stores nothing itself: it hands the part to the request's handler while
 * the body is still arriving. req.body holds exactly the fields sent before the file at this
 * point, which is what lets a chunk be written straight into place.
 */
const handOver: multer.StorageEngine = {
  _handleFile(req, file, cb) {
    const onFile = handlers.get(req);
    if (!onFile) return cb(new Error('no handler for the file part'));
    onFile(file.stream, file.originalname ?? '', plainFields(req.body), progressOf(req)).then(
      () => cb(null, {}),
      (e) => cb(e),
    );
  },
  _removeFile(_req, _file, cb) {
    // The handler owns (and cleans up) whatever it wrote.
    cb(null);
  },
};

/** Counts the body's bytes as they are read from the connection (started before the parser reads). */
const progress = new WeakMap<Request, BodyProgress>();
function trackProgress(req: Request): void {
  const declared = Number(req.headers['content-length']);
  let read = 0;
  req.on('data', (d: Buffer) => (read += d.length));
  progress.set(req, {
    length: Number.isFinite(declared) ? declared : undefined,
    arrived: () => req.complete,
    // Without a length (chunked encoding) nothing is known: ranked as if much were left.
    remaining: () => (Number.isFinite(declared) ? Math.max(0, declared - read) : Number.MAX_SAFE_INTEGER / 2),
    since: performance.now(),
  });
}
const progressOf = (req: Request): BodyProgress => progress.get(req) ?? { arrived: () => req.complete, remaining: () => 0, since: performance.now(), length: undefined };

const FIELD_SIZE = 64 * 1024;

/**
 * A body that did not say its length (chunked encoding) could go on for ever: once its file part
 * is refused, the refusal is answered at once (the client reads it while it still sends), the
 * rest is read and thrown away for at most this long, and then the connection is ended. (A body
 * with a length is read to its end before the answer, so a phone still sending reads it.)
 */
const UNKNOWN_LENGTH_DRAIN_MS = 3000;
const filesSeen = new WeakMap<Request, number>();
const parse = multer({
  storage: handOver,
  // Only the first file part counts, and only if it has the request's name ("file"); any other is read past.
  // (A `files` limit would make a second file part fail a request whose upload already went through.)
  fileFilter: (req, file, cb) => {
    const seen = (filesSeen.get(req) ?? 0) + 1;
    filesSeen.set(req, seen);
    cb(null, seen === 1 && file.fieldname === (fileFields.get(req) ?? 'file'));
  },
  limits: { fields: 32, fieldSize: FIELD_SIZE, parts: 40 },
  // Browsers send a file name's UTF-8 bytes as they are; read as latin1 (the default) "é" or a
  // bidirectional override would turn into other characters and slip past the name's cleaning.
  defParamCharset: 'utf8',
  // Small buffers, so that a file part's pace (uploads/pacer.ts) reaches the connection at once
  // rather than after a megabyte has piled up in the parser (types lag behind multer here).
  ...({ highWaterMark: 64 * 1024, fileHwm: 64 * 1024 } as object),
}).any();

/** req.body as multer builds it (repeated names become arrays) back to name -> last value. */
function plainFields(body: unknown): Fields {
  const out: Fields = {};
  for (const [name, value] of Object.entries((body ?? {}) as Record<string, unknown>)) {
    const v = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof v === 'string') out[name] = v;
  }
  return out;
}

const LIMIT_MESSAGES: Record<string, string> = {
  LIMIT_FIELD_COUNT: 'errors.uploads.too_many_fields',
  LIMIT_PART_COUNT: 'errors.uploads.too_many_parts',
  LIMIT_FIELD_VALUE: 'errors.uploads.field_too_long',
  LIMIT_FIELD_KEY: 'errors.uploads.field_name_too_long',
};

function parseError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof multer.MulterError && LIMIT_MESSAGES[e.code]) return new AppError('invalid_input', LIMIT_MESSAGES[e.code], { kb: FIELD_SIZE / 1024 });
  return new AppError('invalid_input', 'errors.uploads.malformed', { detail: String((e as Error)?.message ?? e) });
}

/**
 * Parses a multipart body as a stream (multer with a pass-through storage engine). `onFile` gets
 * the first file part with the fields that came before it and must consume it; the promise
 * resolves once the whole body is read (fields after the file included). An error from onFile is
 * kept, the rest of the body is drained (multer does that before reporting it), and the error is
 * thrown at the end so the answer goes out on a finished request.
 */
export function readMultipart(req: Request, onFile: OnFile, fileField = 'file'): Promise<{ fields: Fields; sawFile: boolean }> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    // A form whose file part has another name (a guestbook message's "audio") says so.
    const key = fileField === 'file' ? 'errors.uploads.not_multipart' : 'errors.uploads.not_multipart_named';
    return Promise.reject(new AppError('invalid_input', key, { field: fileField }));
  }
  if (fileField !== 'file') fileFields.set(req, fileField);
  return new Promise((resolve, reject) => {
    let sawFile = false;
    let fileDone: Promise<void> = Promise.resolve();
    let failure: unknown;
    let partError: unknown;
    let settled = false;
    handlers.set(req, (file, filename, before, body) => {
      sawFile = true;
      // Told apart from the handler's own failures: a part that broke is the body's fault (400), not ours.
      file.once('error', (e) => (partError = e));
      fileDone = onFile(file, filename, before, body).catch((e) => {
        failure = e;
        if (body.length === undefined && e !== partError) answerNowEndSoon(e);
        throw e;
      });
      return fileDone;
    });
    const answerNowEndSoon = (e: unknown) => {
      if (settled) return;
      settled = true;
      // Not closed with the answer: a socket closed on unread bytes is reset, and the client may
      // lose the answer with it. The rest is drained (multer) until the timer ends the connection.
      req.res?.removeHeader('Connection');
      const timer = setTimeout(() => {
        if (!req.complete) req.socket?.destroy();
      }, UNKNOWN_LENGTH_DRAIN_MS);
      timer.unref();
      req.once('end', () => clearTimeout(timer));
      req.once('close', () => clearTimeout(timer));
      // The handler's own clean-up (its file closed) runs before the answer.
      void fileDone.catch(() => undefined).then(() => reject(e));
    };
    trackProgress(req);
    let synchronous = true;
    // multer's 'close' listener destroys the parser on a dropped connection, which errors the file part.
    parse(req, req.res as Response, (err?: unknown) => {
      if (settled) return;
      settled = true;
      const missingBoundary = synchronous && err !== undefined;
      // A dropped connection is reported at once; the handler may still be saving what it got.
      fileDone
        .catch(() => undefined)
        .then(() => {
          if (failure && failure === partError) reject(parseError(err ?? failure));
          else if (failure) reject(failure);
          else if (missingBoundary) reject(new AppError('invalid_input', 'errors.uploads.no_boundary'));
          else if (err) reject(parseError(err));
          else resolve({ fields: plainFields(req.body), sawFile });
        });
    });
    synchronous = false;
  });
}

/**
 * Answers an error once the request body is consumed (bounded wait), so a client still sending
 * (a phone mid-upload) reads the answer instead of a reset connection.
 */
export function sendErrorAfterDrain(req: Request, res: Response, err: unknown): void {
  const { status, body, headers } = errorAnswer(err, languageOf(req));
  const send = () => {
    if (!res.headersSent) res.status(status).set(headers).json(body);
  };
  if (req.complete || req.readableEnded) return send();
  req.unpipe();
  req.resume();
  const timer = setTimeout(() => {
    res.set('Connection', 'close');
    send();
  }, 3000);
  timer.unref();
  req.once('end', () => {
    clearTimeout(timer);
    send();
  });
  req.once('close', () => clearTimeout(timer));
}

/**
 * Middleware running `check` before any byte of the body is read: a refusal (an AppError) is
 * answered once the body is drained, so a phone still sending reads it; anything else goes on
 * to the error handler.
 */
export function beforeBody(check: (req: Request) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    check(req).then(
      () => next(),
      (e) => (isAppError(e) ? sendErrorAfterDrain(req, res, e) : next(e)),
    );
  };
}
