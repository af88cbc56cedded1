import crypto, { type Hash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DataPaths } from '../context.js';
import type { UploadRow } from '../db/schema.js';
import type { ChunkFields } from './chunk-fields.js';
import { UploadOffsets } from './offsets.js';
import { newId } from './store.js';
import type { UploadsRepo } from './uploads.repo.js';

export interface HashState {
  hash: Hash;
  /** The hash covers the partial file's bytes [0, offset). */
  offset: number;
}

const sizeOf = (file: string) => fsp.stat(file).then((s) => s.size, () => -1);

/**
 * The partial files of chunked uploads and what this process knows about them: each one's row
 * (the `uploads` table), its running SHA-256 and its latest offset (answered from memory and
 * written to the row after each answer, see offsets.ts). Callers hold the upload's lock.
 */
export class PartialUploads {
  private readonly hashes = new Map<string, HashState>();
  private readonly offsets: UploadOffsets;

  constructor(private readonly d: { paths: DataPaths; repo: UploadsRepo }) {
    this.offsets = new UploadOffsets((o) => d.repo.setReceivedMany(o));
  }

  abs = (rel: string) => path.join(this.d.paths.root, rel);

  /** Writes the offsets not yet in the database (on shutdown). */
  flush(): Promise<void> {
    return this.offsets.flush();
  }

  /** The upload's row, with the offset this process knows when the table has not caught up yet. */
  async find(key: string): Promise<UploadRow | undefined> {
    const row = await this.d.repo.findByKey(key);
    const known = row?.status === 'receiving' ? this.offsets.get(row.id) : undefined;
    if (row && known !== undefined) row.received_bytes = known;
    return row;
  }

  async create(f: ChunkFields, clientAddress: string): Promise<UploadRow> {
    const id = newId();
    const rel = path.relative(this.d.paths.root, path.join(this.d.paths.incoming, `${id}.part`));
    await fsp.writeFile(this.abs(rel), '');
    return this.d.repo.create({
      id,
      upload_key: f.key,
      session_id: f.sessionId,
      filename: f.filename,
      total_size: f.totalSize,
      temp_path: rel,
      client_address: clientAddress || null,
    });
  }

  /**
   * The running hash, in step with the partial file. Rebuilt from the file when it is missing
   * (a restart) or out of step; the file is first cut back to what the row claims (bytes past it
   * were never counted), and when it holds less, the row's offset comes down to the file's.
   * Whoever judges a chunk's chunk_start does so after this, against the bytes really there.
   */
  async hashFor(row: UploadRow): Promise<HashState> {
    const known = this.hashes.get(row.id);
    if (known && known.offset === row.received_bytes) return known;
    const file = this.abs(row.temp_path);
    let size = await sizeOf(file);
    if (size < row.received_bytes && (await this.reclaim(row))) size = await sizeOf(file);
    if (size < 0) await fsp.writeFile(file, '');
    const offset = Math.max(0, Math.min(row.received_bytes, size));
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

  /**
   * Bytes up to `position` are in the file and synced: progress counts them. It is answered from
   * memory at once and written to the row after. A hash that is not in step with `position` (it
   * took bytes that were not written or not synced) is rebuilt from the file when next needed.
   */
  advance(row: UploadRow, state: HashState, position: number, hashInStep: boolean): void {
    row.received_bytes = position;
    this.offsets.set(row.id, position);
    if (hashInStep) state.offset = position;
    else this.hashes.delete(row.id);
  }

  /**
   * A store cut off after its original was renamed into media/originals (a crash, or a rename
   * back that failed) leaves that file named after the upload's id (store.ts): it goes back to
   * being the upload's partial file, every byte of it received (they were synced before the
   * rename). False when there is no such file.
   */
  async reclaim(row: UploadRow): Promise<boolean> {
    const names = await fsp.readdir(this.d.paths.originals).catch(() => [] as string[]);
    const name = names.find((n) => n.startsWith(`${row.id}.`));
    if (!name) return false;
    const from = path.join(this.d.paths.originals, name);
    const size = await sizeOf(from);
    await fsp.rename(from, this.abs(row.temp_path));
    this.hashes.delete(row.id);
    row.received_bytes = Math.min(size, row.total_size);
    this.offsets.set(row.id, row.received_bytes);
    return true;
  }

  /** The upload became a photo (or its duplicate): its row says what counts now. */
  completed(id: string): void {
    this.hashes.delete(id);
    this.offsets.forget(id);
  }

  async dropByKey(key: string): Promise<void> {
    const row = await this.d.repo.findByKey(key);
    if (row?.status === 'receiving') await this.drop(row);
  }

  /** The upload can never complete: its row and its partial file go. */
  async drop(row: UploadRow): Promise<void> {
    this.completed(row.id);
    await this.d.repo.delete(row.id);
    await fsp.rm(this.abs(row.temp_path), { force: true });
  }

  /** Files in incoming/ that no partial upload owns and untouched since `before` (ms): single uploads and spooled chunks a crash cut off. */
  async removeLeftovers(before: number): Promise<void> {
    const keep = new Set((await this.d.repo.allTempPaths()).map((p) => path.basename(p)));
    const dir = this.d.paths.incoming;
    for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
      if (keep.has(name)) continue;
      const st = await fsp.stat(path.join(dir, name)).catch(() => undefined);
      if (st && st.mtimeMs < before) await fsp.rm(path.join(dir, name), { force: true });
    }
  }
}
