import type { Readable, Writable } from 'node:stream';
import type { BodyProgress } from '../http/multipart.js';

/** A received form's text fields, name -> last value. */
export type FormFields = Record<string, string>;

/**
 * How the uploads service reads one form without knowing where it comes from (the routes pass
 * the multipart reader): `onFile` gets the first file part as a stream, with the fields sent
 * before it and how far the request has come in, and must consume it; the promise settles once
 * the whole form is read.
 */
export type ReadForm = (
  onFile: (file: Readable, filename: string, fieldsBefore: FormFields, body: BodyProgress) => Promise<void>,
) => Promise<{ fields: FormFields; sawFile: boolean }>;

/** Pipes a part into a sink and settles when the sink has everything (or fails). */
export function pour(src: Readable, sink: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    // The part may have failed while the handler was still opening its file: no event will come.
    if (src.errored) return reject(src.errored);
    if (src.destroyed && !src.readableEnded) return reject(new Error('the file part was cut short'));
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
    // A dropped connection errors the part: multer destroys the parser, which destroys the part.
    src.pipe(sink);
  });
}

/**
 * Reads a part to its end and throws the bytes away: a part nobody wants must still be consumed,
 * or what follows it in the form never arrives.
 */
export const discard = (src: Readable) =>
  new Promise<void>((resolve) => {
    // A part already ended or destroyed (connection cut) emits nothing more: settle now.
    if (src.destroyed || src.readableEnded) return resolve();
    src.on('end', resolve).on('error', () => resolve()).on('close', resolve);
    src.resume();
  });
