import fs from 'node:fs';
import { AppError } from '../errors.js';
import { inEnglish } from '../i18n/english.js';
import type { SpaceReserve } from './space-reserve.js';

/** Seconds a phone holding part of an upload waits before trying again on a full disk. */
const FULL_RETRY_AFTER_S = 30;
/** A body of unknown size is held against the limits again after this many more bytes (RoomMeter). */
const LOOK_EVERY_BYTES = 4 * 1024 * 1024;

/** Counts a body's bytes as they arrive; refuses (storage_full) the piece that would pass the limits. */
export type RoomMeter = (bytes: number) => Promise<void>;

/** `retryAfter`: for bytes already received (the phone comes back by itself); none for a new upload refused outright. */
export const storageFull = (retryAfter?: number) => new AppError('storage_full', 'errors.storage_full', undefined, retryAfter ? { retry_after: retryAfter } : {});
/** The refusal's sentence in English (as the log and the API's English answer have it). */
export const NO_ROOM = inEnglish('errors.storage_full');

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** A write that failed because the disk (or the quota) is full, from the file system or SQLite. */
export function isDiskFull(e: unknown): boolean {
  return FULL_CODES.has((e as { code?: unknown } | null)?.code as string);
}

export interface StorageGuardDeps {
  /** DATA_DIR: its file system's free space is what counts. */
  root: string;
  /** STORAGE_LIMIT_GB in bytes; undefined: only the free space is checked. */
  limitBytes: number | undefined;
  /** MIN_FREE_MB in bytes: an upload never leaves less than this free. */
  minFreeBytes: number;
  /** Bytes of stored media: originals, derivatives and unfinished uploads. */
  used(): Promise<number>;
  reserve: SpaceReserve;
  /** Told of every upload refused for lack of space (the couple is notified). */
  onRefused?: () => void;
}

/**
 * Decides whether an upload may take space. New uploads are judged by their whole size against
 * STORAGE_LIMIT_GB and MIN_FREE_MB; bytes of an upload already admitted are written as long as
 * the disk is not full. "Full" means the space reserve had to be given to the database: uploads
 * then wait until the disk has room for the reserve again.
 */
export class StorageGuard {
  constructor(private readonly d: StorageGuardDeps) {}

  private refuse(retryAfter?: number): AppError {
    this.d.onRefused?.();
    return storageFull(retryAfter);
  }

  private async freeBytes(): Promise<number> {
    const s = await fs.promises.statfs(this.d.root);
    return s.bavail * s.bsize;
  }

  /** Free bytes after keeping the reserve in step with the disk; null when the disk is full. */
  private async room(): Promise<number | null> {
    const { reserve } = this.d;
    let free = await this.freeBytes();
    if (reserve.held && free < reserve.bytes) reserve.release();
    if (!reserve.held && free >= 2 * reserve.bytes && reserve.ensure()) free -= reserve.bytes;
    return reserve.held ? free : null;
  }

  /** A new upload of `bytes`: storage_full when it would pass the limit or the free-space floor. */
  async admit(bytes: number): Promise<void> {
    const free = await this.room();
    if (free === null || free - bytes < this.d.minFreeBytes) throw this.refuse();
    if (this.d.limitBytes !== undefined && (await this.d.used()) + bytes > this.d.limitBytes) throw this.refuse();
  }

  /**
   * A body whose size is not known before it arrives (chunked encoding, or a chunk's bytes before
   * the fields that place it): each piece is counted before it is written, and the one that would
   * take stored media past the limit or the disk below the free-space floor is refused. The disk
   * is looked at again every LOOK_EVERY_BYTES, so what the body (and anyone else) wrote since
   * counts. `retryAfter` as for storageFull.
   */
  meter(retryAfter?: number): RoomMeter {
    let taken = 0;
    let allowed = -1;
    return async (bytes) => {
      if (taken + bytes <= allowed) {
        taken += bytes;
        return;
      }
      const left = await this.left(taken);
      if (left < bytes) throw this.refuse(retryAfter);
      allowed = taken + Math.min(left, LOOK_EVERY_BYTES);
      taken += bytes;
    };
  }

  /** Bytes that may still be stored now, beside `unlisted` already written that `used()` does not count yet; negative when none. */
  private async left(unlisted: number): Promise<number> {
    const free = await this.room();
    if (free === null) return -1;
    // The free space already lacks what was written.
    let left = free - this.d.minFreeBytes;
    if (this.d.limitBytes !== undefined) left = Math.min(left, this.d.limitBytes - (await this.d.used()) - unlisted);
    return left;
  }

  /** More bytes of an upload already admitted (a resumed chunked upload): refused only on a full disk. */
  async ensureWritable(): Promise<void> {
    if ((await this.room()) === null) throw this.refuse(FULL_RETRY_AFTER_S);
  }

  /**
   * What a failed upload answers: a full disk becomes storage_full (and the reserve goes to the
   * database, which must still record how far the upload got); anything else stays as it was.
   */
  failure(e: unknown): unknown {
    if (!isDiskFull(e)) return e;
    this.d.reserve.release();
    return this.refuse(FULL_RETRY_AFTER_S);
  }
}
