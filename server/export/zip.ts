/**
 * The one place archiver is imported: a streaming ZIP in "store" mode (photos and videos are
 * already compressed), plus a file source that hashes what it reads.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ZipArchive } from 'archiver';
import crc32 from 'crc-32';
import { applyPatches, type Patch } from './gps-free.js';

/**
 * archiver checksums every byte with the pure-JS crc-32 package (~280 MB/s here), which
 * would cap the download far below disk speed. Node >= 20.15 has zlib's native CRC-32
 * (~1.8 GB/s); the archive format is unchanged, only the arithmetic moves to C. Without
 * it the JS version stays.
 */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
if (typeof nativeCrc32 === 'function' && !(crc32.buf as { native?: boolean }).native) {
  // crc-32 returns signed 32-bit values and seeds with its previous result (or a non-number meaning 0).
  const fast = (data: Uint8Array, seed?: unknown): number => nativeCrc32(data, typeof seed === 'number' ? seed >>> 0 : 0) | 0;
  (fast as { native?: boolean }).native = true;
  crc32.buf = fast as typeof crc32.buf;
}

export type ZipStream = ZipArchive;

export function createZip(): ZipArchive {
  // Entries switch to ZIP64 records by themselves once an entry or an offset passes 4 GB or
  // there are more than 65,535 entries; small archives stay plain ZIP for old unzippers.
  return new ZipArchive({ store: true, highWaterMark: 1 << 20 });
}

export interface ZipEntryOptions {
  name: string;
  date: Date;
}

export function appendToZip(zip: ZipArchive, source: Readable | Buffer, entry: ZipEntryOptions): void {
  zip.append(source, { name: entry.name, date: entry.date, mode: 0o644, store: true } as Parameters<ZipArchive['append']>[1]);
}

const CHUNK = 1 << 20;
const SMALL_CHUNK = 64 * 1024;
/** Reads continue in the background while the previous chunks are checksummed and sent. */
const READ_AHEAD = 4 * CHUNK;

/**
 * Reads an already opened file in 1 MiB chunks, only as fast as the archive pulls, and
 * hashes exactly the bytes it hands on (the original may differ from its upload after
 * an admin rotated it). Closes the descriptor when done or destroyed.
 */
export class HashingFileReader extends Readable {
  private readonly hash = crypto.createHash('sha256');
  private fd: number | undefined;
  private position = 0;
  /** A read in flight; the descriptor is closed only after it returns (never reused under it). */
  private reading = false;
  private afterRead: (() => void) | undefined;
  /** Bytes read so far; the file's size once `sha256` is set. */
  bytes = 0;
  /** Hex digest, set when the last byte has been read. */
  sha256: string | undefined;

  /**
   * `size` is what fstat said at open; reading still goes on to the real end of the file.
   * `patches` replace byte ranges on the way (gps-free.ts), before hashing.
   */
  constructor(
    fd: number,
    private readonly size: number,
    private readonly patches: readonly Patch[] = [],
  ) {
    super({ highWaterMark: READ_AHEAD });
    this.fd = fd;
  }

  static async open(file: string, patches?: readonly Patch[]): Promise<HashingFileReader> {
    const fd = await new Promise<number>((resolve, reject) => fs.open(file, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
    try {
      const size = await new Promise<number>((resolve, reject) => fs.fstat(fd, (err, st) => (err ? reject(err) : resolve(st.size))));
      return new HashingFileReader(fd, size, patches);
    } catch (err) {
      fs.close(fd, () => {});
      throw err;
    }
  }

  override _read(): void {
    if (this.fd === undefined) return;
    // One byte more than expected: a short read then proves the end without another call,
    // and a photo of a few KB does not cost a megabyte of buffer.
    const remaining = this.size - this.position;
    const want = remaining >= 0 ? Math.min(CHUNK, remaining + 1) : SMALL_CHUNK;
    const buf = Buffer.allocUnsafe(want);
    this.reading = true;
    fs.read(this.fd, buf, 0, want, this.position, (err, n) => {
      this.reading = false;
      if (this.afterRead) return this.afterRead();
      if (err) return this.destroy(err);
      if (n > 0) {
        const chunk = n === want ? buf : buf.subarray(0, n);
        if (this.patches.length) applyPatches(chunk, this.position, this.patches);
        this.position += n;
        this.bytes += n;
        this.hash.update(chunk);
        this.push(chunk);
      }
      if (n < want) {
        this.sha256 = this.hash.digest('hex');
        this.closeFd();
        this.push(null);
      }
    });
  }

  /** 'close' follows only once the descriptor is really closed, so "closed" means the file is let go. */
  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    const done = () => this.closeFd(() => cb(err));
    if (this.reading) this.afterRead = done;
    else done();
  }

  private closeFd(then: () => void = () => {}): void {
    if (this.fd === undefined) return then();
    const fd = this.fd;
    this.fd = undefined;
    fs.close(fd, () => then());
  }
}
