import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import type * as S3 from '@aws-sdk/client-s3';
import type * as Presigner from '@aws-sdk/s3-request-presigner';
import { BucketError, classify, type SdkErrorLike } from './bucket-errors.js';
import type { OffsiteSettings } from './offsite.config.js';

export { BucketError, classify, isPassing, type BucketProblem } from './bucket-errors.js';

// The S3 client (some 20 MiB of memory once loaded) is loaded when a bucket is first used, so a
// site without one never pays for it. require() keeps that synchronous.
const requireHere = createRequire(import.meta.url);
let sdk: { s3: typeof S3; presigner: typeof Presigner } | undefined;
function s3sdk(): { s3: typeof S3; presigner: typeof Presigner } {
  return (sdk ??= { s3: requireHere('@aws-sdk/client-s3') as typeof S3, presigner: requireHere('@aws-sdk/s3-request-presigner') as typeof Presigner });
}

/** Files up to this size go in one request; larger ones in parts (videos). */
export const SINGLE_PUT_MAX = 16 * 1024 * 1024;
const MIN_PART = 8 * 1024 * 1024;
const MAX_PARTS = 9000;

export const partSizeFor = (size: number) => Math.max(MIN_PART, Math.ceil(size / MAX_PARTS / (1024 * 1024)) * 1024 * 1024);

/** A read stream whose errors end the request instead of reaching the process. */
function guarded(stream: fs.ReadStream): fs.ReadStream {
  stream.on('error', () => {});
  return stream;
}

export interface FileSums {
  size: number;
  sha256: string;
  /** base64, for Content-MD5. */
  md5: string;
}

/** One pass over a file: its size, SHA-256 (hex) and MD5. */
export async function fileSums(file: string): Promise<FileSums> {
  const sha = crypto.createHash('sha256');
  const md5 = crypto.createHash('md5');
  let size = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    sha.update(chunk);
    md5.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: sha.digest('hex'), md5: md5.digest('base64') };
}

/** The MD5 (base64) of bytes start..start+length of an open file, read as a stream. */
async function rangeMd5(fh: fs.promises.FileHandle, start: number, length: number): Promise<string> {
  const md5 = crypto.createHash('md5');
  let got = 0;
  for await (const chunk of fh.createReadStream({ start, end: start + length - 1, autoClose: false, highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    md5.update(chunk);
    got += chunk.length;
  }
  if (got !== length) throw new Error('The file became shorter while it was copied');
  return md5.digest('base64');
}

export interface MultipartState {
  uploadId: string;
  parts: { PartNumber: number; ETag: string }[];
}

export interface PutOptions {
  sums: FileSums;
  contentType?: string;
  /** A multipart copy cut short before (kept in the database): carried on from its last part. */
  resume?: MultipartState | null;
  /** Called as a multipart copy begins and after each part the bucket confirmed. */
  onProgress?(state: MultipartState): Promise<void>;
  signal?: AbortSignal;
}

/** The couple's bucket, through the maintained S3 client (requests are signed by it, never by hand). */
export class Bucket {
  readonly client: S3.S3Client;
  private readonly s3: typeof S3;
  readonly name: string;
  readonly prefix: string;

  constructor(readonly settings: OffsiteSettings, opts: { timeoutMs?: number; maxAttempts?: number } = {}) {
    this.name = settings.bucket;
    this.prefix = settings.prefix;
    this.s3 = s3sdk().s3;
    this.client = new this.s3.S3Client({
      endpoint: settings.endpoint,
      region: settings.region || 'us-east-1',
      forcePathStyle: settings.force_path_style,
      credentials: { accessKeyId: settings.access_key_id, secretAccessKey: settings.secret_access_key },
      // Several S3-compatible services (B2, R2, MinIO) refuse the CRC32 checksums the SDK adds by default.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: opts.maxAttempts ?? 2,
      requestHandler: { connectionTimeout: Math.min(opts.timeoutMs ?? 10_000, 10_000), requestTimeout: opts.timeoutMs ?? 120_000 },
    });
  }

  key(rel: string): string {
    return this.prefix + rel;
  }

  private async send<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw classify(err);
    }
  }

  /**
   * Copies a file to `rel` and returns once the bucket confirmed its bytes: each request carries
   * Content-MD5 (the bucket refuses bytes that do not match), a single request's ETag is the MD5
   * checked again, and a multipart copy is checked by HEAD (size and the SHA-256 kept with it).
   */
  async putFile(rel: string, file: string, o: PutOptions): Promise<{ etag: string }> {
    const Key = this.key(rel);
    const Metadata = { sha256: o.sums.sha256 };
    if (o.sums.size <= SINGLE_PUT_MAX) {
      // Read through a descriptor opened first: a file deleted meanwhile still reads to its end
      // (the copy is deleted after), and no stream error can escape as an uncaught exception.
      const fh = await fs.promises.open(file, 'r');
      const out = await this.send(() =>
        this.client.send(
          new this.s3.PutObjectCommand({
            Bucket: this.name,
            Key,
            Body: guarded(fh.createReadStream({ autoClose: false, end: o.sums.size - 1 })),
            ContentLength: o.sums.size,
            ContentMD5: o.sums.md5,
            ContentType: o.contentType,
            Metadata,
          }),
          { abortSignal: o.signal },
        ),
      ).finally(() => fh.close());
      const etag = (out.ETag ?? '').replace(/"/g, '');
      const md5hex = Buffer.from(o.sums.md5, 'base64').toString('hex');
      // An ETag that is an MD5 must be this one; some services (encryption at rest) give another kind.
      if (/^[0-9a-f]{32}$/i.test(etag) && etag.toLowerCase() !== md5hex) throw new BucketError('checksum_mismatch', `The bucket holds other bytes for ${rel}`);
      if (!/^[0-9a-f]{32}$/i.test(etag)) await this.confirm(rel, o.sums);
      return { etag };
    }
    return this.putMultipart(rel, file, o);
  }

  private async putMultipart(rel: string, file: string, o: PutOptions): Promise<{ etag: string }> {
    const Key = this.key(rel);
    const partSize = partSizeFor(o.sums.size);
    const count = Math.ceil(o.sums.size / partSize);
    let state: MultipartState | null = o.resume && o.resume.uploadId ? { uploadId: o.resume.uploadId, parts: [...o.resume.parts] } : null;
    if (!state) {
      const created = await this.send(() =>
        this.client.send(new this.s3.CreateMultipartUploadCommand({ Bucket: this.name, Key, ContentType: o.contentType, Metadata: { sha256: o.sums.sha256 } }), {
          abortSignal: o.signal,
        }),
      );
      state = { uploadId: created.UploadId!, parts: [] };
      await o.onProgress?.(state);
    }
    const fd = await fs.promises.open(file, 'r');
    try {
      const done = new Set(state.parts.map((p) => p.PartNumber));
      for (let n = 1; n <= count; n++) {
        if (done.has(n)) continue;
        const start = (n - 1) * partSize;
        const length = Math.min(partSize, o.sums.size - start);
        // Streamed twice from the page cache (its MD5, then its bytes): no part is held in memory.
        const md5 = await rangeMd5(fd, start, length);
        const uploadId = state.uploadId;
        const body = guarded(fd.createReadStream({ start, end: start + length - 1, autoClose: false, highWaterMark: 256 * 1024 }));
        const out = await this.send(() =>
          this.client.send(
            new this.s3.UploadPartCommand({ Bucket: this.name, Key, UploadId: uploadId, PartNumber: n, Body: body, ContentLength: length, ContentMD5: md5 }),
            { abortSignal: o.signal },
          ),
        );
        state.parts.push({ PartNumber: n, ETag: out.ETag! });
        await o.onProgress?.(state);
      }
    } finally {
      await fd.close();
    }
    const parts = [...state.parts].sort((a, b) => a.PartNumber - b.PartNumber);
    const uploadId = state.uploadId;
    const out = await this.send(() =>
      this.client.send(new this.s3.CompleteMultipartUploadCommand({ Bucket: this.name, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }), {
        abortSignal: o.signal,
      }),
    );
    await this.confirm(rel, o.sums);
    return { etag: (out.ETag ?? '').replace(/"/g, '') };
  }

  /** HEAD: the object's size and the SHA-256 kept with it are what was sent. */
  async confirm(rel: string, sums: { size: number; sha256: string }): Promise<void> {
    const head = await this.head(rel);
    if (!head) throw new BucketError('checksum_mismatch', `The bucket does not show ${rel} after it was copied`);
    if (head.size !== sums.size || (head.sha256 && head.sha256 !== sums.sha256))
      throw new BucketError('checksum_mismatch', `The bucket holds other bytes for ${rel} (${head.size} bytes)`);
  }

  async abortMultipart(rel: string, uploadId: string): Promise<void> {
    await this.send(() => this.client.send(new this.s3.AbortMultipartUploadCommand({ Bucket: this.name, Key: this.key(rel), UploadId: uploadId }))).catch(() => {});
  }

  /** null when there is no such object. */
  async head(rel: string): Promise<{ size: number; sha256: string | undefined; etag: string } | null> {
    try {
      const h = await this.client.send(new this.s3.HeadObjectCommand({ Bucket: this.name, Key: this.key(rel) }));
      return { size: h.ContentLength ?? -1, sha256: h.Metadata?.sha256, etag: (h.ETag ?? '').replace(/"/g, '') };
    } catch (err) {
      const e = err as SdkErrorLike;
      if (e.name === 'NotFound' || e.name === 'NoSuchKey' || (e.$metadata?.httpStatusCode === 404 && e.name !== 'NoSuchBucket')) return null;
      throw classify(err);
    }
  }

  async delete(rel: string): Promise<void> {
    await this.send(() => this.client.send(new this.s3.DeleteObjectCommand({ Bucket: this.name, Key: this.key(rel) })));
  }

  async putBytes(rel: string, body: Buffer, contentType?: string): Promise<void> {
    const md5 = crypto.createHash('md5').update(body).digest('base64');
    const sha256 = crypto.createHash('sha256').update(body).digest('hex');
    await this.send(() =>
      this.client.send(new this.s3.PutObjectCommand({ Bucket: this.name, Key: this.key(rel), Body: body, ContentLength: body.length, ContentMD5: md5, ContentType: contentType, Metadata: { sha256 } })),
    );
  }

  /** The object's bytes as a stream (for a short read such as "Test connection"). */
  async getStream(rel: string, signal?: AbortSignal): Promise<Readable> {
    const out = await this.send(() => this.client.send(new this.s3.GetObjectCommand({ Bucket: this.name, Key: this.key(rel) }), { abortSignal: signal }));
    return out.Body as Readable;
  }

  /**
   * Downloads `rel` to `dest` through a temporary file beside it; with `sha256`, the bytes must
   * have it or nothing is put in place. Returns the SHA-256 of what arrived.
   */
  async download(rel: string, dest: string, o: { sha256?: string | null; signal?: AbortSignal } = {}): Promise<{ sha256: string; size: number }> {
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    const tmp = `${dest}.fetching-${crypto.randomBytes(4).toString('hex')}`;
    const sha = crypto.createHash('sha256');
    let size = 0;
    try {
      const body = await this.getStream(rel, o.signal);
      await pipeline(
        body,
        async function* (src: AsyncIterable<Buffer>) {
          for await (const chunk of src) {
            sha.update(chunk);
            size += chunk.length;
            yield chunk;
          }
        },
        fs.createWriteStream(tmp),
      );
      const got = sha.digest('hex');
      if (o.sha256 && got !== o.sha256) throw new BucketError('checksum_mismatch', `${rel} came back from the bucket with other bytes than were copied`);
      const fd = await fs.promises.open(tmp, 'r');
      await fd.sync().finally(() => fd.close());
      await fs.promises.rename(tmp, dest);
      return { sha256: got, size };
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err instanceof BucketError ? err : classify(err);
    }
  }

  /** Every object under `sub` (relative to the prefix), page by page. */
  async *list(sub = ''): AsyncGenerator<{ rel: string; size: number; lastModified: Date | undefined }> {
    let token: string | undefined;
    do {
      const page = await this.send(() =>
        this.client.send(new this.s3.ListObjectsV2Command({ Bucket: this.name, Prefix: this.key(sub), ContinuationToken: token })),
      );
      for (const o of page.Contents ?? []) {
        if (o.Key) yield { rel: o.Key.slice(this.prefix.length), size: o.Size ?? 0, lastModified: o.LastModified };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** A GET link anyone holding it can use until it expires. */
  presign(rel: string, expiresInS: number): Promise<string> {
    return s3sdk().presigner.getSignedUrl(this.client, new this.s3.GetObjectCommand({ Bucket: this.name, Key: this.key(rel) }), { expiresIn: expiresInS });
  }

  destroy(): void {
    this.client.destroy();
  }
}
