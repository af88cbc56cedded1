import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, invalid } from '../errors.js';
import { uploadKey } from './chunk-fields.js';
import { ChunkedUploads, type ChunkOutcome, type UploadProgress } from './chunked-upload.js';
import { receiveSingleUpload } from './single-upload.js';
import { cleanFilename, UploadStore, type Enqueue, type StoredUpload } from './store.js';
import type { ReadForm } from './streams.js';
import { UploadsRepo } from './uploads.repo.js';

export interface UploadsDeps {
  config: Config;
  paths: DataPaths;
  db: Kysely<DB>;
  /** The uploads switch of the settings (CONTRACT "Running"). */
  settings: { uploadsEnabled(): Promise<boolean> };
  /** Each new photo is queued for metadata and derivatives. */
  processing: Enqueue;
}

/** Which upload a client asks about: its upload_id, else session, file name and size (raw text). */
export interface OffsetQuery {
  uploadId?: string;
  sessionId: string;
  filename: string;
  totalSize: string;
}

/** Guest uploads: whole files, resumable chunks, resume offsets and the sweep of stale partials. */
export class UploadsService {
  private readonly chunked: ChunkedUploads;
  private readonly store: UploadStore;

  constructor(private readonly d: UploadsDeps) {
    const repo = new UploadsRepo(d.db);
    this.store = new UploadStore({ paths: d.paths, db: d.db, repo, processing: d.processing });
    this.chunked = new ChunkedUploads({ paths: d.paths, maxUploadBytes: d.config.maxUploadBytes, repo, store: this.store });
  }

  /** Throws uploads_disabled while the couple has uploads switched off. */
  async ensureEnabled(): Promise<void> {
    if (!(await this.d.settings.uploadsEnabled())) throw new AppError('uploads_disabled', 'Uploads are not enabled yet');
  }

  /** A whole file in one form (fields: session_id; the file part). */
  receiveFile(readForm: ReadForm): Promise<StoredUpload> {
    return receiveSingleUpload({ incoming: this.d.paths.incoming, maxUploadBytes: this.d.config.maxUploadBytes, store: this.store }, readForm);
  }

  /** One chunk of a resumable upload. */
  receiveChunk(readForm: ReadForm): Promise<ChunkOutcome> {
    return this.chunked.receive(readForm);
  }

  /** How much of an upload the server holds, so a client can resume. */
  offset(q: OffsetQuery): Promise<UploadProgress> {
    if (!q.uploadId && (!q.sessionId || !q.filename || !/^\d{1,16}$/.test(q.totalSize))) {
      throw invalid('Give session_id, filename and total_size (a whole number), or an upload_id.');
    }
    return this.chunked.offset(uploadKey(q.uploadId, q.sessionId, cleanFilename(q.filename), Number(q.totalSize)));
  }

  /** Removes partial uploads untouched for `maxAgeMs` (and old completed rows); returns how many rows went. */
  cleanup(maxAgeMs?: number, now?: number): Promise<number> {
    return this.chunked.cleanup(maxAgeMs, now);
  }
}
