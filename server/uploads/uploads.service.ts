import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, invalid } from '../errors.js';
import { uploadKey } from './chunk-fields.js';
import { ChunkedUploads, type ChunkOutcome, type UploadProgress } from './chunked-upload.js';
import { sweepOrphans } from './orphans.js';
import { receiveSingleUpload } from './single-upload.js';
import { cleanFilename, UploadStore, type Enqueue, type StoredUpload } from './store.js';
import type { StorageGuard } from '../storage/storage.js';
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
  /** STORAGE_LIMIT_GB, MIN_FREE_MB and a full disk. */
  storage: StorageGuard;
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
  private readonly repo: UploadsRepo;

  constructor(private readonly d: UploadsDeps) {
    const repo = (this.repo = new UploadsRepo(d.db));
    this.store = new UploadStore({ paths: d.paths, db: d.db, repo, processing: d.processing });
    this.chunked = new ChunkedUploads({ paths: d.paths, maxUploadBytes: d.config.maxUploadBytes, repo, store: this.store, storage: d.storage });
  }

  /** Throws uploads_disabled while the couple has uploads switched off. */
  async ensureEnabled(): Promise<void> {
    if (!(await this.d.settings.uploadsEnabled())) throw new AppError('uploads_disabled', 'errors.uploads.disabled');
  }

  /** A whole file in one form (fields: session_id, optional uploader_name; the file part), sent by guest `guestId`. */
  receiveFile(readForm: ReadForm, guestId: string | null = null): Promise<StoredUpload> {
    const deps = { incoming: this.d.paths.incoming, maxUploadBytes: this.d.config.maxUploadBytes, store: this.store };
    return receiveSingleUpload(deps, readForm, guestId).catch(this.asFull);
  }

  /** Before a whole file of about `bytes` is read: storage_full when it cannot fit (nothing is read or kept). */
  admit(bytes: number): Promise<void> {
    return this.d.storage.admit(bytes);
  }

  private asFull = (e: unknown): never => {
    throw this.d.storage.failure(e);
  };

  /** One chunk of a resumable upload; the photo made by the last one is recorded as guest `guestId`'s. */
  receiveChunk(readForm: ReadForm, guestId: string | null = null, clientAddress = ''): Promise<ChunkOutcome> {
    return this.chunked.receive(readForm, guestId, clientAddress).catch(this.asFull);
  }

  /** How much of an upload the server holds, so a client can resume. */
  offset(q: OffsetQuery): Promise<UploadProgress> {
    if (!q.uploadId && (!q.sessionId || !q.filename || !/^\d{1,16}$/.test(q.totalSize))) {
      throw invalid('errors.uploads.offset_fields');
    }
    return this.chunked.offset(uploadKey(q.uploadId, q.sessionId, cleanFilename(q.filename), Number(q.totalSize)));
  }

  /** After a crash: queues photos that never got their job and removes originals no photo owns. */
  sweepOrphans(startedAt: number): Promise<{ queued: number; removed: number }> {
    return sweepOrphans({ paths: this.d.paths, repo: this.repo, processing: this.d.processing, startedAt });
  }

  /** On shutdown: writes the partial uploads' latest offsets, which are recorded after each answer. */
  flush(): Promise<void> {
    return this.chunked.flush();
  }

  /** Removes partial uploads untouched for `maxAgeMs` (and old completed rows); returns how many rows went. */
  cleanup(maxAgeMs?: number, now?: number): Promise<number> {
    return this.chunked.cleanup(maxAgeMs, now);
  }
}
