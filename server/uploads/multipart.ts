import busboy from 'busboy';
import type { Request, Response } from 'express';
import type { Readable, Writable } from 'node:stream';
import { HttpError } from '../http/errors.js';

export type Fields = Record<string, string>;

/**
 * Parses a multipart body as a stream. `onFile` gets the first file part with the fields
 * that came before it and must consume it; the promise resolves once the whole body is read
 * (fields after the file included). An error from onFile is kept, the rest of the body is
 * drained, and the error is thrown at the end so the answer goes out on a finished request.
 */
export function readMultipart(
  req: Request,
  onFile: (file: Readable, filename: string, fieldsSoFar: Fields) => Promise<void>,
): Promise<{ fields: Fields; sawFile: boolean }> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) {
    return Promise.reject(new HttpError(400, 'Send the upload as multipart/form-data with a "file" part.'));
  }
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, highWaterMark: 1 << 20, fileHwm: 1 << 20, limits: { files: 1, fields: 32, fieldSize: 64 * 1024, parts: 40 } });
    } catch {
      reject(new HttpError(400, 'The multipart body could not be read (missing boundary).'));
      return;
    }
    const fields: Fields = {};
    let sawFile = false;
    let fileDone: Promise<void> = Promise.resolve();
    let failure: unknown;
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (name, file, info) => {
      if (name !== 'file' || sawFile) {
        file.resume();
        return;
      }
      sawFile = true;
      fileDone = onFile(file, info.filename ?? '', { ...fields }).catch((e) => {
        failure = e;
        // The handler stopped reading: throw the rest of this part away so the parser moves on.
        file.unpipe();
        file.resume();
      });
    });
    bb.on('error', (e) => {
      req.unpipe(bb);
      req.resume();
      fileDone.finally(() =>
        reject(failure ?? new HttpError(400, `The upload was interrupted or malformed: ${(e as Error).message}.`)),
      );
    });
    bb.on('close', () => {
      fileDone.then(() => (failure ? reject(failure) : resolve({ fields, sawFile })));
    });
    // A dropped connection never ends the body: stop the parser so the file part errors out.
    req.once('close', () => {
      if (!req.complete) bb.destroy(new Error('the connection was closed'));
    });
    req.pipe(bb);
  });
}

/** Pipes a part into a sink and settles when the sink has everything (or fails). */
export function pour(src: Readable, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (e: unknown) => {
      if (settled) return;
      settled = true;
      src.unpipe(sink);
      reject(e);
    };
    sink.on('error', fail);
    src.on('error', fail);
    sink.on('finish', () => {
      if (!settled) {
        settled = true;
        resolve();
      }
    });
    // busboy ends a part cut short by a broken connection without error; it reports it on the parser.
    src.pipe(sink);
  });
}

/** Answers once the request body is consumed (bounded wait), so clients still sending read the answer. */
export function answerAfterDrain(req: Request, res: Response, status: number, body: unknown): void {
  const send = () => {
    if (!res.headersSent) res.status(status).json(body);
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
