import crypto, { type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DataPaths } from '../context.js';
import type { UploadRow } from '../db/schema.js';
import { AppError, conflict, invalid, tooLarge, unsupportedType, type ErrorCode } from '../errors.js';
import type { StorageGuard } from '../storage/storage.js';
import { admitNewUpload } from './admission.js';
import { hasChunkFields, parseChunkFields, uploaderNameField, type ChunkFields } from './chunk-fields.js';
import { FileSink } from './file-sink.js';
import { KeyLock } from './key-lock.js';
import { UploadOffsets } from './offsets.js';
import { sniff, SNIFF_BYTES, UNSUPPORTED_TYPE } from './sniff.js';
import { newId, type StoredUpload, type Uploader, type UploadStore } from './store.js';
import { discard, pour, type ReadForm } from './streams.js';
import type { UploadsRepo } from './uploads.repo.js';

interface HashState {
  hash: Hash;
  /** The hash covers the partial file's bytes [0, offset). */
  offset: number;
}

/** How far an upload got; `complete` (with its photo) once the whole file was stored. */
export interface UploadProgress {
  received_bytes: number;
  complete?: true;
  photo_id?: string | null;
}

/** After a chunk: the file became a photo (the last chunk), or how far the upload got. */
export type ChunkOutcome = { stored: StoredUpload } | { progress: UploadProgress };

export interface ChunkedUploadsDeps {
  paths: DataPaths;
  maxUploadBytes: number;
  repo: UploadsRepo;
  store: UploadStore;
  storage: StorageGuard;
}

const endsShort = () => invalid('errors.uploads.last_chunk_short');

/**
 * Errors that judge the bytes themselves (a chunk of the wrong size, a file of a refused type):
 * the partial upload can never complete, so it is dropped. Anything else is an interruption,
 * and what reached the file is kept for a resume.
 */
const REJECTS_CONTENT = new Set<ErrorCode>(['invalid_input', 'unsupported_type']);
const rejectsContent = (e: unknown) => e instanceof AppError && REJECTS_CONTENT.has(e.code);

const unknownUpload = () => conflict('errors.uploads.unknown_upload', undefined, { received_bytes: 0 });

/**
 * Chunked, resumable uploads: partial state in the `uploads` table, the running hash and the
 * latest offsets in memory (the offsets are written to the table after each answer).
 */
export class ChunkedUploads {
  private hashes = new Map<string, HashState>();
  private readonly locks = new KeyLock();
  private readonly repo: UploadsRepo;
  private readonly offsets: UploadOffsets;

  constructor(private readonly d: ChunkedUploadsDeps) {
    this.repo = d.repo;
    this.offsets = new UploadOffsets((o) => d.repo.setReceivedMany(o));
  }

  /** Writes the offsets not yet in the database (on shutdown). */
  flush(): Promise<void> {
    return this.offsets.flush();
  }

  /** The upload's row, with the offset this process knows when the table has not caught up yet. */
  private async find(key: string): Promise<UploadRow | undefined> {
    const row = await this.repo.findByKey(key);
    const known = row?.status === 'receiving' ? this.offsets.get(row.id) : undefined;
    if (row && known !== undefined) row.received_bytes = known;
    return row;
  }

  private abs = (rel: string) => path.join(this.d.paths.root, rel);

  /** One chunk's form: its fields and the chunk's bytes as the file part. */
  async receive(readForm: ReadForm, guestId: string | null = null, clientAddress = ''): Promise<ChunkOutcome> {
    const max = this.d.maxUploadBytes;
    let direct: { fields: ChunkFields; release: () => void; done: boolean } | undefined;
    let spool: string | undefined;
    try {
      const { fields, sawFile } = await readForm(async (file, _name, before, arrived) => {
        if (hasChunkFields(before)) {
          // Fields first (what our client sends): write the bytes straight into place.
          const f = parseChunkFields(before, max);
          direct = { fields: f, release: await this.locks.acquire(f.key), done: false };
          await this.apply(f, file, clientAddress, arrived);
          direct.done = true;
        } else {
          spool = path.join(this.d.paths.incoming, `${newId()}.chunk`);
          const handle = await fsp.open(spool, 'w');
          try {
            await pour(file, new FileSink({ fd: handle.fd, position: 0, hash: null, limit: max, tooLarge: () => tooLarge('errors.uploads.chunk_too_large'), arrived }));
          } finally {
            await handle.close();
          }
        }
      });
      if (!sawFile) throw invalid('errors.uploads.no_chunk_file');
      const f = direct?.fields ?? parseChunkFields(fields, max);
      // Every field of the form, those after the file included: the name sent with the last chunk counts.
      const uploader: Uploader = { guestId, name: uploaderNameField(fields) };
      // is_last_chunk may arrive after the file part; it only matters now.
      const last = fields.is_last_chunk?.trim().toLowerCase();
      if (last === 'true' && f.chunkEnd !== f.totalSize) {
        direct ??= { fields: f, release: await this.locks.acquire(f.key), done: false };
        await this.dropByKey(f.key);
        throw endsShort();
      }
      if (!direct) {
        direct = { fields: f, release: await this.locks.acquire(f.key), done: false };
        await this.apply(f, fs.createReadStream(spool!), clientAddress);
      }
      return await this.afterChunk(f, uploader);
    } finally {
      direct?.release();
      if (spool) await fsp.rm(spool, { force: true });
    }
  }

  /** How much of the upload with this key is held (a client resuming asks first). */
  async offset(key: string): Promise<UploadProgress> {
    // A chunk still being received or put away (a cut one keeps what arrived) answers first.
    const release = await this.locks.acquire(key);
    try {
      return await this.progress(key);
    } finally {
      release();
    }
  }

  private async progress(key: string): Promise<UploadProgress> {
    const row = await this.find(key);
    if (!row) return { received_bytes: 0 };
    if (row.status === 'complete') return { received_bytes: row.total_size, complete: true, photo_id: row.photo_id };
    return { received_bytes: row.received_bytes };
  }

  /** Writes one chunk's new bytes at the end of the partial file (under the upload's lock). */
  private async apply(f: ChunkFields, src: Readable, clientAddress: string, arrived?: () => boolean): Promise<void> {
    if (f.endsShort) {
      await discard(src);
      await this.dropByKey(f.key);
      throw endsShort();
    }
    let row = await this.find(f.key);
    if (row?.status === 'complete') {
      if (f.chunkStart === 0 && !f.isLast) {
        // The same key starting over after a finished upload: a new upload.
        await this.repo.delete(row.id);
        row = undefined;
      } else {
        await discard(src);
        return;
      }
    }
    if (row && row.total_size !== f.totalSize) {
      await discard(src);
      throw invalid('errors.uploads.total_size_mismatch', { total: row.total_size });
    }
    if (!row) {
      if (f.chunkStart !== 0) {
        await discard(src);
        throw unknownUpload();
      }
      await admitNewUpload(this.repo, this.d.storage, f, clientAddress).catch(async (e) => {
        await discard(src);
        throw e;
      });
      row = await this.create(f, clientAddress);
    }
    if (f.chunkStart > row.received_bytes) {
      await discard(src);
      throw conflict('errors.uploads.out_of_order', { received: row.received_bytes }, { received_bytes: row.received_bytes });
    }
    if (f.chunkEnd <= row.received_bytes) {
      await discard(src); // a re-send of bytes already stored
      return;
    }
    // What arrived before stays for a resume once the disk has room again.
    await this.d.storage.ensureWritable().catch(async (e) => {
      await discard(src);
      throw e;
    });
    await this.write(row, f, src, arrived);
  }

  private async create(f: ChunkFields, clientAddress: string): Promise<UploadRow> {
    const id = newId();
    const rel = path.relative(this.d.paths.root, path.join(this.d.paths.incoming, `${id}.part`));
    await fsp.writeFile(this.abs(rel), '');
    return this.repo.create({
      id,
      upload_key: f.key,
      session_id: f.sessionId,
      filename: f.filename,
      total_size: f.totalSize,
      temp_path: rel,
      client_address: clientAddress || null,
    });
  }

  private async write(row: UploadRow, f: ChunkFields, src: Readable, arrived?: () => boolean): Promise<void> {
    const state = await this.hashFor(row);
    const declared = f.chunkEnd - f.chunkStart;
    const handle = await fsp.open(this.abs(row.temp_path), 'r+');
    const sink = new FileSink({
      fd: handle.fd,
      position: row.received_bytes,
      hash: state.hash,
      skip: row.received_bytes - f.chunkStart,
      limit: declared,
      tooLarge: () => invalid('errors.uploads.chunk_longer', { declared }),
      sniff: row.received_bytes === 0,
      arrived,
    });
    try {
      await pour(src, sink);
      if (sink.seen !== declared) {
        throw invalid('errors.uploads.chunk_size_mismatch', { seen: sink.seen, declared });
      }
    } catch (e) {
      if (rejectsContent(e)) {
        await this.drop(row);
      } else {
        // Interrupted: keep what arrived (written now if it was still gathered) so the client can resume from there.
        await sink.keepReceived().catch(() => undefined);
        this.advance(row, state, sink.position);
        if (sink.hashAhead) this.hashes.delete(row.id);
      }
      throw e;
    } finally {
      await handle.close();
    }
    this.advance(row, state, sink.position);
  }

  /**
   * Progress counts only once the bytes are in the file (synced), so the row never claims more
   * than the file holds. It is answered from memory at once and written to the row after.
   */
  private advance(row: UploadRow, state: HashState, position: number): void {
    state.offset = position;
    row.received_bytes = position;
    this.offsets.set(row.id, position);
  }

  private async afterChunk(f: ChunkFields, uploader: Uploader): Promise<ChunkOutcome> {
    const row = await this.find(f.key);
    if (!row) throw unknownUpload();
    if (row.status === 'complete') {
      if (f.isLast) return { stored: { photoId: row.photo_id!, duplicate: row.duplicate === 1 } };
      return { progress: { received_bytes: row.total_size, complete: true, photo_id: row.photo_id } };
    }
    if (row.received_bytes < row.total_size) {
      if (f.isLast && f.chunkStart <= row.received_bytes) {
        await this.drop(row);
        throw invalid('errors.uploads.total_mismatch', { received: row.received_bytes, total: row.total_size });
      }
      return { progress: { received_bytes: row.received_bytes } };
    }
    return this.complete(row, uploader);
  }

  private async complete(row: UploadRow, uploader: Uploader): Promise<ChunkOutcome> {
    const file = this.abs(row.temp_path);
    const state = await this.hashFor(row);
    const head = Buffer.alloc(SNIFF_BYTES);
    const handle = await fsp.open(file, 'r');
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
    const type = sniff(head.subarray(0, bytesRead));
    if (!type) {
      await this.drop(row);
      throw unsupportedType(UNSUPPORTED_TYPE);
    }
    const stored = await this.d.store.store({
      tempPath: file,
      sha256: state.hash.digest('hex'),
      size: row.total_size,
      type,
      originalName: row.filename,
      sessionId: row.session_id,
      uploader,
      uploadId: row.id,
    });
    this.hashes.delete(row.id);
    // A new photo marked the row complete in its own transaction; a duplicate did not.
    if (stored.duplicate) await this.repo.markComplete(row.id, stored.photoId, true);
    this.offsets.forget(row.id);
    return { stored };
  }

  /** The running hash; rebuilt from the partial file once when it is missing (restart) or out of step. */
  private async hashFor(row: UploadRow): Promise<HashState> {
    const known = this.hashes.get(row.id);
    if (known && known.offset === row.received_bytes) return known;
    const file = this.abs(row.temp_path);
    const size = await fsp.stat(file).then((s) => s.size, () => -1);
    if (size < 0) await fsp.writeFile(file, '');
    const offset = Math.max(0, Math.min(row.received_bytes, size));
    // Bytes past the recorded offset (a write cut short by a crash) are not trusted.
    await fsp.truncate(file, offset);
    const hash = crypto.createHash('sha256');
    if (offset > 0) {
      for await (const chunk of fs.createReadStream(file, { start: 0, end: offset - 1, highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
    }
    if (offset !== row.received_bytes) {
      row.received_bytes = offset;
      this.offsets.set(row.id, offset);
    }
    const state = { hash, offset };
    this.hashes.set(row.id, state);
    return state;
  }

  private async dropByKey(key: string): Promise<void> {
    const row = await this.repo.findByKey(key);
    if (row?.status === 'receiving') await this.drop(row);
  }

  private async drop(row: UploadRow): Promise<void> {
    this.hashes.delete(row.id);
    this.offsets.forget(row.id);
    await this.repo.delete(row.id);
    await fsp.rm(this.abs(row.temp_path), { force: true });
  }

  /** Removes partial uploads untouched for `maxAgeMs` (row and file) and completed rows as old. */
  async cleanup(maxAgeMs = 24 * 3600_000, now = Date.now()): Promise<number> {
    const rows = await this.repo.staleRows(now - maxAgeMs);
    for (const row of rows) {
      if (row.status === 'receiving') await this.drop(row);
      else await this.repo.delete(row.id);
    }
    // Single uploads cut off by a crash leave .upload/.chunk files no row points at.
    const keep = new Set((await this.repo.allTempPaths()).map((p) => path.basename(p)));
    const dir = this.d.paths.incoming;
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (keep.has(name)) continue;
      const st = await fsp.stat(path.join(dir, name)).catch(() => undefined);
      if (st && st.mtimeMs < now - maxAgeMs) await fsp.rm(path.join(dir, name), { force: true });
    }
    return rows.length;
  }
}
