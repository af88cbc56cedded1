import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DataPaths } from '../context.js';
import type { UploadRow } from '../db/schema.js';
import { AppError, conflict, invalid, tooLarge, unsupportedType, type ErrorCode } from '../errors.js';
import type { BodyProgress } from '../http/multipart.js';
import type { StorageGuard } from '../storage/storage.js';
import { admitNewUpload } from './admission.js';
import { capturedAtField, challengeField, hasChunkFields, parseChunkFields, uploaderNameField, type ChunkFields } from './chunk-fields.js';
import { FileSink, pourIntoNewFile } from './file-sink.js';
import { tableField } from './chunk-fields.js';
import { KeyLock } from './key-lock.js';
import { PartialUploads, type HashState } from './partial-uploads.js';
import { sniffFile, UNSUPPORTED_TYPE } from './sniff.js';
import { newId, type ShotGate, type StoredUpload, type Uploader, type UploadStore } from './store.js';
import { discard, pour, type ReadForm } from './streams.js';
import { PAGE_REQUEST_BYTES } from './turns.js';
import type { UploadsRepo } from './uploads.repo.js';
import { log } from '../log.js';

/** How far an upload got; `complete` (with its photo) once the whole file was stored. */
export interface UploadProgress {
  received_bytes: number;
  complete?: true;
  photo_id?: string | null;
  duplicate?: true;
}

/** After a chunk: the file became a photo (the last chunk), or how far the upload got. */
export type ChunkOutcome = { stored: StoredUpload } | { progress: UploadProgress };

export interface ChunkedUploadsDeps {
  paths: DataPaths;
  maxUploadBytes: number;
  repo: UploadsRepo;
  store: UploadStore;
  storage: StorageGuard;
  /** The shot limit: a guest with no shot left starts no new upload. */
  shots?: ShotGate;
}

const endsShort = () => invalid('errors.uploads.last_chunk_short');

/**
 * A chunk whose fields come after its bytes is kept aside (spooled) until they say where it goes:
 * at most the page's chunk (a script sending larger chunks this way gets 413; fields first, a
 * chunk goes straight into place, judged by its upload's admitted size).
 */
export const MAX_SPOOLED_BYTES = PAGE_REQUEST_BYTES;
/** Seconds before a chunk refused for lack of room is sent again (what its upload holds stays). */
const SPOOL_RETRY_AFTER_S = 30;

/**
 * Errors that judge the bytes themselves (a chunk of the wrong size, a file of a refused type):
 * the partial upload can never complete, so it is dropped. Anything else is an interruption,
 * and what reached the file is kept for a resume.
 */
const REJECTS_CONTENT = new Set<ErrorCode>(['invalid_input', 'unsupported_type']);
const rejectsContent = (e: unknown) => e instanceof AppError && REJECTS_CONTENT.has(e.code);

const unknownUpload = () => conflict('errors.uploads.unknown_upload', undefined, { received_bytes: 0 });
const behind = (received: number) => conflict('errors.uploads.out_of_order', { received }, { received_bytes: received });

const stored = (row: UploadRow): StoredUpload => ({ photoId: row.photo_id!, duplicate: row.duplicate === 1 });

/**
 * Chunked, resumable uploads, one chunk at a time per upload (its lock). Once every byte has
 * arrived the upload ends stored: should storing fail (a full disk, the database closing), the
 * bytes stay, and the next try (the last chunk again, or the offset call) stores them.
 */
export class ChunkedUploads {
  private readonly locks = new KeyLock();
  private readonly partials: PartialUploads;
  /** Who sent the last chunk of an upload whose store failed: a later try by the offset call stores it as theirs. */
  private readonly senders = new Map<string, Uploader>();

  constructor(private readonly d: ChunkedUploadsDeps) {
    this.partials = new PartialUploads({ paths: d.paths, repo: d.repo });
  }

  /** Writes the offsets not yet in the database (on shutdown). */
  flush(): Promise<void> {
    return this.partials.flush();
  }

  /** One chunk's form: its fields and the chunk's bytes as the file part; `challenges`: the ids a challenge_id may name. */
  async receive(readForm: ReadForm, guestId: string | null = null, clientAddress = '', challenges: ReadonlySet<string> = new Set(), unlimited = false, tables = 0): Promise<ChunkOutcome> {
    const admitShot = () => (guestId && !unlimited && this.d.shots ? this.d.shots.admit(guestId) : Promise.resolve());
    const max = this.d.maxUploadBytes;
    let direct: { fields: ChunkFields; release: () => void } | undefined;
    let spool: string | undefined;
    try {
      const { fields, sawFile } = await readForm(async (file, _name, before, body) => {
        if (hasChunkFields(before)) {
          // Fields first (what our client sends): write the bytes straight into place.
          const f = parseChunkFields(before, max, challenges);
          direct = { fields: f, release: await this.locks.acquire(f.key) };
          await this.apply(f, file, clientAddress, admitShot, body);
        } else {
          // Fields after the bytes: kept aside until the fields say where they go; at most one
          // chunk of the page's, and counted against the storage limits as it arrives.
          spool = path.join(this.d.paths.incoming, `${newId()}.chunk`);
          const limit = Math.min(max, MAX_SPOOLED_BYTES);
          const room = this.d.storage.meter(SPOOL_RETRY_AFTER_S);
          await pourIntoNewFile(spool, file, { hash: null, limit, tooLarge: () => tooLarge('errors.uploads.chunk_too_large'), body, room });
        }
      });
      if (!sawFile) throw invalid('errors.uploads.no_chunk_file');
      const f = direct?.fields ?? parseChunkFields(fields, max, challenges);
      const table = tableField(fields, tables);
      // Every field of the form, those after the file included: the name sent with the last chunk counts.
      const uploader: Uploader = { guestId, name: uploaderNameField(fields), challengeId: challengeField(fields, challenges), unlimited, capturedAt: capturedAtField(fields) };
      // is_last_chunk may arrive after the file part; it only matters now.
      const last = fields.is_last_chunk?.trim().toLowerCase();
      if (last === 'true' && f.chunkEnd !== f.totalSize) {
        direct ??= { fields: f, release: await this.locks.acquire(f.key) };
        await this.partials.dropByKey(f.key);
        throw endsShort();
      }
      if (!direct) {
        direct = { fields: f, release: await this.locks.acquire(f.key) };
        await this.apply(f, fs.createReadStream(spool!), clientAddress, admitShot);
      }
      return await this.afterChunk(f, { ...uploader, table });
    } finally {
      direct?.release();
      if (spool) await fsp.rm(spool, { force: true });
    }
  }

  /**
   * How much of the upload with this key is held (a client resuming asks first). When every byte
   * is here but the file is not stored yet (an earlier try failed), it is stored now, as `asker`'s
   * unless the last chunk's sender is known.
   */
  async offset(key: string, asker: Uploader): Promise<UploadProgress> {
    // A chunk still being received or put away (a cut one keeps what arrived) answers first.
    const release = await this.locks.acquire(key);
    try {
      const row = await this.partials.find(key);
      if (!row) return { received_bytes: 0 };
      // What the file really holds (after a crash: cut back to its row, or found again in originals).
      if (row.status === 'receiving') await this.partials.hashFor(row);
      if (row.status === 'receiving' && row.received_bytes < row.total_size) return { received_bytes: row.received_bytes };
      const done = row.status === 'complete' ? { stored: stored(row) } : await this.complete(row, this.senders.get(row.id) ?? asker);
      if ('progress' in done) return done.progress;
      return { received_bytes: row.total_size, complete: true, photo_id: done.stored.photoId, ...(done.stored.duplicate ? { duplicate: true } : {}) };
    } finally {
      release();
    }
  }

  /** Writes one chunk's new bytes at the end of the partial file (under the upload's lock). */
  private async apply(f: ChunkFields, src: Readable, clientAddress: string, admitShot: () => Promise<void>, body?: BodyProgress): Promise<void> {
    const refuse = async (e: unknown) => {
      await discard(src);
      throw e;
    };
    if (f.endsShort) {
      await this.partials.dropByKey(f.key);
      return refuse(endsShort());
    }
    let row = await this.partials.find(f.key);
    if (row?.status === 'complete') {
      if (f.chunkStart !== 0 || f.isLast) return discard(src);
      // The same key starting over after a finished upload: a new upload.
      await this.d.repo.delete(row.id);
      row = undefined;
    }
    if (row && row.total_size !== f.totalSize) return refuse(invalid('errors.uploads.total_size_mismatch', { total: row.total_size }));
    if (!row) {
      if (f.chunkStart !== 0) return refuse(unknownUpload());
      await admitShot().catch(refuse);
      await admitNewUpload(this.d.repo, this.d.storage, f, clientAddress).catch(refuse);
      row = await this.partials.create(f, clientAddress);
    }
    // Judged against the bytes really in the file: hashFor may find fewer than the row says.
    const state = await this.partials.hashFor(row);
    if (f.chunkStart > row.received_bytes) return refuse(behind(row.received_bytes));
    if (f.chunkEnd <= row.received_bytes) return discard(src); // a re-send of bytes already stored
    // What arrived before stays for a resume once the disk has room again.
    await this.d.storage.ensureWritable().catch(refuse);
    await this.write(row, state, f, src, body);
  }

  private async write(row: UploadRow, state: HashState, f: ChunkFields, src: Readable, body?: BodyProgress): Promise<void> {
    const declared = f.chunkEnd - f.chunkStart;
    const file = await fsp.open(this.partials.abs(row.temp_path), 'r+');
    const sink = new FileSink({
      file,
      position: row.received_bytes,
      hash: state.hash,
      skip: row.received_bytes - f.chunkStart,
      limit: declared,
      tooLarge: () => invalid('errors.uploads.chunk_longer', { declared }),
      sniff: row.received_bytes === 0,
      body,
    });
    try {
      await pour(src, sink);
      if (sink.seen !== declared) {
        throw invalid('errors.uploads.chunk_size_mismatch', { seen: sink.seen, declared });
      }
    } catch (e) {
      if (rejectsContent(e)) {
        await sink.stop();
        await this.partials.drop(row);
      } else {
        // Interrupted: keep what arrived (written now if it was still gathered) so the client can resume from there.
        await sink.keepReceived().catch(() => undefined);
        this.partials.advance(row, state, sink.synced, !sink.hashAhead && sink.synced === sink.position);
      }
      throw e;
    } finally {
      await sink.stop();
      await file.close();
    }
    this.partials.advance(row, state, sink.synced, true);
  }

  private async afterChunk(f: ChunkFields, uploader: Uploader): Promise<ChunkOutcome> {
    const row = await this.partials.find(f.key);
    if (!row) throw unknownUpload();
    if (row.status === 'complete') {
      if (f.isLast) return { stored: stored(row) };
      return { progress: { received_bytes: row.total_size, complete: true, photo_id: row.photo_id } };
    }
    if (row.received_bytes < row.total_size) {
      // A last chunk that left a gap: the client goes back to what is here.
      if (f.isLast) throw behind(row.received_bytes);
      return { progress: { received_bytes: row.received_bytes } };
    }
    const done = await this.complete(row, uploader);
    if ('progress' in done && f.isLast) throw behind(done.progress.received_bytes);
    return done;
  }

  /** Every byte is here: the file becomes a photo (or finds its duplicate). Under the upload's lock. */
  private async complete(row: UploadRow, uploader: Uploader): Promise<ChunkOutcome> {
    const state = await this.partials.hashFor(row);
    if (row.received_bytes < row.total_size) return { progress: { received_bytes: row.received_bytes } };
    const file = this.partials.abs(row.temp_path);
    const type = await sniffFile(file);
    if (!type) {
      await this.partials.drop(row);
      throw unsupportedType(UNSUPPORTED_TYPE);
    }
    this.senders.set(row.id, uploader);
    const result = await this.d.store
      .store({
        tempPath: file,
        // A copy: should the store fail, the running hash is still whole for the next try.
        sha256: state.hash.copy().digest('hex'),
        size: row.total_size,
        type,
        originalName: row.filename,
        sessionId: row.session_id,
        uploader,
        uploadId: row.id,
      })
      .catch(async (e) => {
        // A guest out of shots: the upload can never be stored as theirs, so nothing of it is kept.
        if (e instanceof AppError && e.code === 'shot_limit_reached') {
          this.senders.delete(row.id);
          await this.partials.drop(row);
        }
        throw e;
      });
    this.senders.delete(row.id);
    this.partials.completed(row.id);
    return { stored: result };
  }

  /**
   * Removes partial uploads untouched for `maxAgeMs` (row and file) and completed rows as old. One
   * that holds every byte is stored instead: nothing that arrived whole is thrown away.
   */
  async cleanup(maxAgeMs = 24 * 3600_000, now = Date.now()): Promise<number> {
    const rows = await this.d.repo.staleRows(now - maxAgeMs);
    let removed = 0;
    for (const stale of rows) {
      const release = await this.locks.acquire(stale.upload_key);
      try {
        const row = await this.partials.find(stale.upload_key);
        if (!row || row.id !== stale.id) continue;
        if (row.status === 'receiving' && row.received_bytes >= row.total_size) {
          await this.complete(row, this.senders.get(row.id) ?? { guestId: null, name: null }).catch((e) => log.warn(`Storing the whole upload ${row.id} failed; the next sweep tries again`, e));
          continue;
        }
        if (row.status === 'receiving') await this.partials.drop(row);
        else await this.d.repo.delete(row.id);
        removed++;
      } finally {
        release();
      }
    }
    await this.partials.removeLeftovers(now - maxAgeMs);
    return removed;
  }

  /** An original named after this receiving upload (a store cut off by a crash) becomes its partial file again. */
  async reclaim(row: UploadRow): Promise<void> {
    const release = await this.locks.acquire(row.upload_key);
    try {
      const now = await this.partials.find(row.upload_key);
      if (now?.id === row.id && now.status === 'receiving') await this.partials.reclaim(now);
    } finally {
      release();
    }
  }
}
