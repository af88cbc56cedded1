import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { msg } from '../../common/languages.js';
import { cleanUploaderName } from '../../common/rules.js';
import { recordActivity } from '../activity/activity.repo.js';
import { isDatabaseUnavailable } from '../db/writer.js';
import { AppError, invalid } from '../errors.js';
import { durableStorage, type Durable } from '../storage/durable.js';
import { log } from '../log.js';
import type { StorageGuard } from '../storage/storage.js';
import { capturedAtField, tableField, uploadKey } from './chunk-fields.js';
import { ChunkedUploads, type ChunkOutcome, type UploadProgress } from './chunked-upload.js';
import { sweepOrphans, type SweepResult } from './orphans.js';
import { receiveSingleUpload } from './single-upload.js';
import { cleanFilename, UploadStore, type Enqueue, type ShotGate, type StoredUpload } from './store.js';
import type { ReadForm } from './streams.js';
import { UploadsRepo } from './uploads.repo.js';

export interface UploadsDeps {
  config: Config;
  paths: DataPaths;
  db: Kysely<DB>;
  /** The uploads switch of the settings (CONTRACT "Running") and the photo challenges a file may name. */
  settings: { uploadsEnabled(): Promise<boolean>; challengeIds(): Promise<ReadonlySet<string>>; get?(): Promise<{ tables?: number }> };
  /** Each new photo is queued for metadata and derivatives. */
  processing: Enqueue;
  /** STORAGE_LIMIT_GB, MIN_FREE_MB and a full disk. */
  storage: StorageGuard;
  /** The syncs a stored answer waits for; shared with the guestbook when given. */
  durable?: Durable;
  /** The shot limit per guest (the disposable-camera game); none: every guest unlimited. */
  shots?: ShotGate;
}

/** Which upload a client asks about: its upload_id, else session, file name and size (raw text). */
export interface OffsetQuery {
  uploadId?: string;
  sessionId: string;
  filename: string;
  totalSize: string;
  /** Who asks (the guest cookie, the name given): an upload stored by this call is theirs. */
  guestId: string | null;
  uploaderName?: string;
  /** The photo challenge the guest picked; one no longer set is left out (the file is stored without it). */
  challengeId?: string;
  /** Asked by a signed-in user: not held to the shot limit. */
  unlimited?: boolean;
  /** When a file taken in the page was taken (its date taken), as the page sends it. */
  capturedAt?: string;
  /** The table whose QR sign the page came from, as the chunks' `table` field sends it. */
  table?: string;
}

/** Seconds a phone waits before trying again when the database could not take its photo. */
const STORE_RETRY_AFTER_S = 5;
/** Seconds a phone waits before trying again when the disk failed a read, a write or a sync. */
const IO_RETRY_AFTER_S = 10;

/**
 * Failures of the machine's disk or resources rather than of the upload (a failed write or sync,
 * too many open files, a file system turned read-only): they pass, or the operator mends them,
 * and what arrived is kept for the next try.
 */
const PASSING_CODES = new Set(['EIO', 'EAGAIN', 'EBUSY', 'EINTR', 'EMFILE', 'ENFILE', 'ENOMEM', 'ENOBUFS', 'EROFS', 'ETIMEDOUT', 'SQLITE_LOCKED', 'SQLITE_NOMEM', 'SQLITE_CANTOPEN', 'SQLITE_PROTOCOL']);

export function isPassingIoFailure(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (PASSING_CODES.has(code) || code.startsWith('SQLITE_IOERR'));
}

/** Guest uploads: whole files, resumable chunks, resume offsets and the sweep of stale partials. */
export class UploadsService {
  private readonly chunked: ChunkedUploads;
  private readonly store: UploadStore;
  private readonly repo: UploadsRepo;

  constructor(private readonly d: UploadsDeps) {
    const repo = (this.repo = new UploadsRepo(d.db));
    this.store = new UploadStore({ paths: d.paths, db: d.db, repo, processing: d.processing, durable: d.durable ?? durableStorage(d.paths), shots: d.shots });
    this.chunked = new ChunkedUploads({ paths: d.paths, maxUploadBytes: d.config.maxUploadBytes, repo, store: this.store, storage: d.storage, shots: d.shots });
  }

  /** Throws uploads_disabled while the couple has uploads switched off. */
  async ensureEnabled(): Promise<void> {
    if (!(await this.d.settings.uploadsEnabled())) throw new AppError('uploads_disabled', 'errors.uploads.disabled');
  }

  /**
   * A whole file in one form (fields: session_id, optional uploader_name; the file part), sent by
   * guest `guestId`; `unlimited`: by a signed-in user, not held to the shot limit.
   */
  async receiveFile(readForm: ReadForm, guestId: string | null = null, unlimited = false): Promise<StoredUpload> {
    const deps = { incoming: this.d.paths.incoming, maxUploadBytes: this.d.config.maxUploadBytes, store: this.store, storage: this.d.storage, tables: await this.tables() };
    return receiveSingleUpload(deps, readForm, guestId, await this.d.settings.challengeIds(), unlimited).catch(this.asFailure);
  }

  /** Before a whole file of about `bytes` is read: storage_full when it cannot fit (nothing is read or kept). */
  admit(bytes: number): Promise<void> {
    return this.d.storage.admit(bytes);
  }

  /**
   * What a failed upload answers: a full disk is storage_full, a database that cannot take the
   * photo just now or a disk that failed a write or a sync is unavailable, each with Retry-After
   * (what arrived is kept for that try).
   */
  private asFailure = (e: unknown): never => {
    const full = this.d.storage.failure(e);
    if (full !== e) throw full;
    if (isDatabaseUnavailable(e)) throw new AppError('unavailable', 'errors.uploads.store_unavailable', undefined, { retry_after: STORE_RETRY_AFTER_S });
    if (isPassingIoFailure(e)) {
      log.warn('An upload could not be written or stored; the phone tries again', e);
      throw new AppError('unavailable', 'errors.uploads.write_failed', undefined, { retry_after: IO_RETRY_AFTER_S });
    }
    throw e;
  };

  /** One chunk of a resumable upload; the photo made by the last one is recorded as guest `guestId`'s. */
  async receiveChunk(readForm: ReadForm, guestId: string | null = null, clientAddress = '', unlimited = false): Promise<ChunkOutcome> {
    return this.chunked.receive(readForm, guestId, clientAddress, await this.d.settings.challengeIds(), unlimited, await this.tables()).catch(this.asFailure);
  }

  /** How many tables have a QR sign of their own (the settings' tables; none without them). */
  private async tables(): Promise<number> {
    return (await this.d.settings.get?.())?.tables ?? 0;
  }

  /** How much of an upload the server holds, so a client can resume; an upload whose bytes all arrived is stored first. */
  async offset(q: OffsetQuery): Promise<UploadProgress> {
    if (!q.uploadId && (!q.sessionId || !q.filename || !/^\d{1,16}$/.test(q.totalSize))) {
      throw invalid('errors.uploads.offset_fields');
    }
    const name = cleanUploaderName(q.uploaderName);
    const challengeId = q.challengeId && (await this.d.settings.challengeIds()).has(q.challengeId) ? q.challengeId : null;
    const asker = {
      guestId: q.guestId,
      name: 'name' in name ? name.name : null,
      challengeId,
      unlimited: q.unlimited === true,
      capturedAt: capturedAtField(q.capturedAt ? { captured_at: q.capturedAt } : {}),
      table: tableField(q.table ? { table: q.table } : {}, await this.tables()),
    };
    const key = uploadKey(q.uploadId, q.sessionId, cleanFilename(q.filename), Number(q.totalSize));
    return this.chunked.offset(key, asker).catch(this.asFailure);
  }

  /** After a crash: queues photos that never got their job, and makes photos of originals no photo owns. */
  sweepOrphans(startedAt: number): Promise<SweepResult> {
    return sweepOrphans({
      paths: this.d.paths,
      repo: this.repo,
      processing: this.d.processing,
      store: this.store,
      reclaim: (row) => this.chunked.reclaim(row),
      recordRecovered: (count) => recordActivity(this.d.db, 'other', msg('activity.files_recovered', { count })),
      startedAt,
    });
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
