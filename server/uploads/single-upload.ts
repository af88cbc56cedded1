import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Request } from 'express';
import type { Shared } from '../area.js';
import { HttpError } from '../http/errors.js';
import { FileSink } from './file-sink.js';
import { pour, readMultipart } from './multipart.js';
import { cleanFilename, creationAnswer, newId, storeUpload } from './store.js';
import type { UploadsRepo } from './uploads.repo.js';

export const tooLarge = (maxBytes: number) => () =>
  new HttpError(413, `The file is too large. The limit is ${formatLimit(maxBytes)} per file.`);

function formatLimit(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${+gib.toFixed(2)} GB`;
  const mib = bytes / 1024 ** 2;
  if (mib >= 1) return `${+mib.toFixed(2)} MB`;
  return `${bytes} bytes`;
}

/** POST /api/upload: one request carries the whole file; it is streamed to disk, sniffed and hashed on the way. */
export async function receiveSingleUpload(shared: Shared, repo: UploadsRepo, req: Request) {
  const { paths, config } = shared.ctx;
  const tempPath = path.join(paths.incoming, `${newId()}.upload`);
  let sink: FileSink | undefined;
  let clientName = '';
  const hash = crypto.createHash('sha256');
  try {
    const { fields, sawFile } = await readMultipart(req, async (file, filename) => {
      clientName = filename;
      const handle = await fs.open(tempPath, 'w');
      try {
        sink = new FileSink({
          fd: handle.fd,
          position: 0,
          hash,
          limit: config.maxUploadBytes,
          tooLarge: tooLarge(config.maxUploadBytes),
          sniff: true,
        });
        await pour(file, sink);
      } finally {
        await handle.close();
      }
    });
    if (!sawFile || !sink) throw new HttpError(400, 'No file was sent: the form needs a "file" part.');
    if (sink.seen === 0) throw new HttpError(400, 'The file is empty.');
    const sessionId = (fields.session_id ?? '').slice(0, 200);
    const stored = await storeUpload(shared, repo, {
      tempPath,
      sha256: hash.digest('hex'),
      size: sink.seen,
      type: sink.type!,
      originalName: cleanFilename(clientName || fields.filename),
      sessionId,
    });
    return creationAnswer(stored);
  } finally {
    // Whatever did not become a photo is not kept.
    await fs.rm(tempPath, { force: true });
  }
}
