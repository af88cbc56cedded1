import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { invalid, tooLarge } from '../errors.js';
import { capturedAtField, challengeField, uploaderNameField } from './chunk-fields.js';
import { pourIntoNewFile, type FileSink } from './file-sink.js';
import { tableField } from './chunk-fields.js';
import { cleanFilename, newId, type StoredUpload, type UploadStore } from './store.js';
import type { StorageGuard } from '../storage/storage.js';
import type { ReadForm } from './streams.js';

/** The refusal of a file over MAX_UPLOAD_GB (also used before a body declared far too large is read). */
export const fileTooLarge = (maxBytes: number) => tooLarge('errors.uploads.file_too_large', { limit: formatLimit(maxBytes) });

function formatLimit(bytes: number): string {
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${+gib.toFixed(2)} GB`;
  const mib = bytes / 1024 ** 2;
  if (mib >= 1) return `${+mib.toFixed(2)} MB`;
  return `${bytes} bytes`;
}

export interface SingleUploadDeps {
  /** Folder for files being received. */
  incoming: string;
  /** How many tables have a QR sign of their own (the table field names one of them). */
  tables?: number;
  maxUploadBytes: number;
  store: UploadStore;
  /** A body that does not say its length was not judged before it came: its bytes are, as they arrive. */
  storage: StorageGuard;
}

/** One form carries the whole file: it is streamed to disk, sniffed and hashed on the way. */
export async function receiveSingleUpload(
  d: SingleUploadDeps,
  readForm: ReadForm,
  guestId: string | null = null,
  challenges: ReadonlySet<string> = new Set(),
  unlimited = false,
): Promise<StoredUpload> {
  const tempPath = path.join(d.incoming, `${newId()}.upload`);
  let sink: FileSink | undefined;
  let clientName = '';
  const hash = crypto.createHash('sha256');
  try {
    const { fields, sawFile } = await readForm(async (file, filename, _before, body) => {
      clientName = filename;
      const room = body.length === undefined ? d.storage.meter() : undefined;
      sink = await pourIntoNewFile(tempPath, file, { hash, limit: d.maxUploadBytes, tooLarge: () => fileTooLarge(d.maxUploadBytes), sniff: true, body, room });
    });
    if (!sawFile || !sink) throw invalid('errors.uploads.no_file');
    if (sink.seen === 0) throw invalid('errors.uploads.empty');
    const uploader = { guestId, name: uploaderNameField(fields), challengeId: challengeField(fields, challenges), unlimited, capturedAt: capturedAtField(fields) };
    const sessionId = (fields.session_id ?? '').slice(0, 200);
    return await d.store.store({
      tempPath,
      sha256: hash.digest('hex'),
      size: sink.seen,
      type: sink.type!,
      originalName: cleanFilename(clientName || fields.filename),
      sessionId,
      uploader: { ...uploader, table: tableField(fields, d.tables ?? 0) },
    });
  } finally {
    // Whatever did not become a photo is not kept.
    await fs.rm(tempPath, { force: true });
  }
}
