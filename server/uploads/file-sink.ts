import type { Hash } from 'node:crypto';
import fsp, { type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { unsupportedType, type AppError } from '../errors.js';
import type { BodyProgress } from '../http/multipart.js';
import type { RoomMeter } from '../storage/storage-guard.js';
import { writeBackFd } from '../storage/write-back.js';
import { paceUploadBytes, writeEnded, writeStarted } from './pacer.js';
import { SNIFF_BYTES, sniff, UNSUPPORTED_TYPE, type SniffedType } from './sniff.js';
import { pour } from './streams.js';

/** Bytes gathered before one write. */
const WRITE_BATCH = 256 * 1024;
/**
 * Bytes an upload may gather while its previous batch is being written; beyond this it takes no
 * more until that write ends. A request the pacer lets through in a long run (its credit) then
 * keeps coming in while the thread pool writes, instead of stopping at every batch.
 */
const GATHER_AHEAD = 512 * 1024;

export interface FileSinkOptions {
  /**
   * The open file, written at `position` onward (pwrite: streams straight into place). A handle,
   * never a bare descriptor number: a number outlives its file once closed, and Linux gives it to
   * the next file opened, another upload's.
   */
  file: FileHandle;
  position: number;
  /** Updated only with bytes that reached the file, so hash and file never disagree. */
  hash: Hash | null;
  /** Leading bytes of the stream to drop (already received earlier). */
  skip?: number;
  /** Most bytes the stream may carry (counted before skipping); more is `tooLarge`. */
  limit: number;
  tooLarge: () => AppError;
  /** Check the first bytes' magic before anything is written. */
  sniff?: boolean;
  /**
   * How far the request has come in: the pacer ranks its pieces by what is left. Once its last
   * byte has come in from the network, its pieces skip the pacer's queue: what is left is already
   * in memory, so nothing is held back in the connection by waiting, and finishing lets the phone
   * have its answer and send its next piece.
   */
  body?: BodyProgress;
  /** Counts each piece before it is written, against the storage limits (a body of unknown size); refuses by throwing. */
  room?: RoomMeter;
}

/**
 * Receives a file part: counts, sniffs the first bytes, hashes while writing. Nothing is ever
 * held beyond GATHER_AHEAD and the batch being written, so memory stays flat whatever the file
 * size.
 *
 * Writes to the file run one after another, and none starts once the owner has called `stop()`
 * (or `keepReceived()`): a piece still waiting in the pacer when the connection drops is dropped
 * with it, so the file, the hash and `position` stay what the owner read, and the owner may close
 * the file as soon as `stop()` resolves.
 */
export class FileSink extends Writable {
  /** Bytes seen in the stream, skipped ones included. */
  seen = 0;
  /** Where the next byte goes; position - start = bytes written. */
  position: number;
  /** Bytes up to here are on the disk (synced): what an upload may claim it received. */
  synced: number;
  type: SniffedType | null = null;
  /** The hash took in bytes that did not reach the file (a failed write). */
  hashAhead = false;
  private skip: number;
  private head: Buffer[] | null;
  private headLength = 0;
  /** Received, not yet written (and not yet hashed). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** The last write to the file asked for; each waits for the one before. */
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;
  /** A flush is waiting in `writing` and will take everything gathered when it runs. */
  private flushQueued = false;
  /** A write failed: nothing more is written (later bytes would land where the failed ones belong). */
  private failure: Error | null = null;

  constructor(private readonly o: FileSinkOptions) {
    // A small buffer: a paced upload stops taking bytes from its connection at once.
    super({ highWaterMark: 64 * 1024 });
    this.position = o.position;
    this.synced = o.position;
    this.skip = o.skip ?? 0;
    this.head = o.sniff ? [] : null;
  }

  override _writev(chunks: { chunk: Buffer }[], cb: (err?: Error | null) => void): void {
    if (this.stopped) return cb();
    if (this.failure) return cb(this.failure);
    const bufs = chunks.map((c) => c.chunk);
    const total = bufs.reduce((n, b) => n + b.length, 0);
    // The common case (past the first bytes, nothing to skip): gathered into one vectored write
    // per WRITE_BATCH. Each write is a trip through libuv's thread pool, which file reads for the
    // gallery share: a socket's 64 KiB pieces written one by one would cost eight times as many.
    if (!this.head && this.skip === 0 && this.seen + total <= this.o.limit) {
      this.seen += total;
      this.pending.push(...bufs);
      this.pendingBytes += total;
      // Each piece waits for room in a turn of the event loop (pacer.ts) before more is taken in.
      return this.pace(total, () => this.gathered(cb));
    }
    this.settle(async () => {
      await this.flush();
      for (const b of bufs) await this.accept(b);
    }, cb);
  }

  private pace(bytes: number, go: () => void): void {
    if (this.o.body?.arrived()) go();
    else paceUploadBytes(bytes, go, this.o.body);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this._writev([{ chunk }], cb);
  }

  override _final(cb: (err?: Error | null) => void): void {
    this.settle(async () => {
      const head = this.head ? Buffer.concat(this.head) : null;
      this.head = null;
      if (head) await this.decide(head);
      await this.flush();
      await this.sync(); // on the disk before the phone is told it arrived (see writeBackFd)
    }, cb);
  }

  /**
   * After a piece was let in: a full batch is queued for writing, and more is taken in at once
   * while what is gathered stays under GATHER_AHEAD; past that, once the queued write has ended.
   */
  private gathered(cb: (err?: Error | null) => void): void {
    if (this.pendingBytes < WRITE_BATCH) return cb();
    if (!this.flushQueued) {
      this.flushQueued = true;
      // A failure is kept in `failure` (settle) and answered to the next piece or to _final.
      this.settle(
        () => ((this.flushQueued = false), this.flush()),
        () => undefined,
      );
    }
    if (this.pendingBytes < GATHER_AHEAD) return cb();
    void this.writing.then(() => cb(this.failure));
  }

  /** Queues `work` behind the writes asked for before it; after stop() it does nothing. */
  private settle(work: () => Promise<void>, cb: (err?: Error | null) => void): void {
    const run = this.writing.then(() => {
      if (this.failure) throw this.failure;
      return this.stopped ? undefined : work();
    });
    this.writing = run.catch((e: Error) => {
      this.failure ??= e;
    });
    run.then(() => cb(), cb);
  }

  /** No write starts from now on; resolves once the one under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
  }

  /**
   * After a cut connection: stops, then writes and syncs what arrived and is still gathered, so
   * every byte that arrived is kept for the resume. `synced` says how far the file is on disk.
   */
  async keepReceived(): Promise<void> {
    await this.stop();
    try {
      await this.flush();
    } finally {
      await this.sync(); // what did reach the file counts, even when the rest could not be written
    }
  }

  private async sync(): Promise<void> {
    const at = this.position;
    if (at === this.synced) return;
    await writeBackFd(this.o.file.fd);
    this.synced = at;
  }

  private async flush(): Promise<void> {
    if (!this.pendingBytes || this.failure) return;
    const bufs = this.pending;
    const total = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    await this.writeOutMany(bufs, total);
  }

  private async accept(chunk: Buffer): Promise<void> {
    this.seen += chunk.length;
    if (this.seen > this.o.limit) throw this.o.tooLarge();
    if (this.skip > 0) {
      const drop = Math.min(this.skip, chunk.length);
      this.skip -= drop;
      chunk = chunk.subarray(drop);
      if (chunk.length === 0) return;
    }
    if (this.head) {
      this.head.push(chunk);
      this.headLength += chunk.length;
      if (this.headLength < SNIFF_BYTES) return;
      const head = Buffer.concat(this.head);
      this.head = null;
      return this.decide(head);
    }
    await this.writeOut(chunk);
  }

  private async decide(head: Buffer): Promise<void> {
    if (head.length === 0) return;
    this.type = sniff(head);
    if (!this.type) throw unsupportedType(UNSUPPORTED_TYPE);
    await this.writeOut(head);
  }

  private async writeOutMany(bufs: Buffer[], total: number): Promise<void> {
    await this.o.room?.(total);
    writeStarted(total);
    const writing = this.o.file.writev(bufs, this.position);
    // Hash while the thread pool writes. Should the write then fail, the hash is ahead of the
    // file, and hashAhead tells the owner to rebuild it from the file.
    for (const b of bufs) this.o.hash?.update(b);
    try {
      let done = (await writing).bytesWritten;
      while (done < total) {
        const rest = Buffer.concat(bufs).subarray(done);
        done += (await this.o.file.write(rest, 0, rest.length, this.position + done)).bytesWritten;
      }
    } catch (e) {
      this.hashAhead = true;
      throw e;
    } finally {
      writeEnded(total);
    }
    this.position += total;
  }

  private async writeOut(buf: Buffer): Promise<void> {
    await this.o.room?.(buf.length);
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await this.o.file.write(buf, off, buf.length - off, this.position);
      // Hash exactly what reached the file so that an interrupted write leaves them in step.
      this.o.hash?.update(buf.subarray(off, off + bytesWritten));
      off += bytesWritten;
      this.position += bytesWritten;
    }
  }
}

/** Pours a whole file part into a new file at `path`; the sink tells what it saw (closed when this resolves or throws). */
export async function pourIntoNewFile(path: string, src: Readable, o: Omit<FileSinkOptions, 'file' | 'position'>): Promise<FileSink> {
  const file = await fsp.open(path, 'w');
  const sink = new FileSink({ ...o, file, position: 0 });
  try {
    await pour(src, sink);
    return sink;
  } finally {
    await sink.stop();
    await file.close();
  }
}
