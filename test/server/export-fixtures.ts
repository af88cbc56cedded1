// Photo rows and original files placed straight into a test server's DATA_DIR, so export
// tests stand on their own (no upload pipeline involved).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { NewPhotoRow } from '../../server/db/schema.js';
import type { RunningServer } from '../../server/server.js';

export interface PlacedPhoto {
  id: string;
  /** Absolute path of the original under DATA_DIR. */
  file: string;
  row: NewPhotoRow;
}

type PhotoFields = Partial<Omit<NewPhotoRow, 'id' | 'stored_path'>>;

let seq = 0;

/** Inserts a photo row whose original is `source` copied (or `create`d) under media/originals. */
export async function placePhoto(s: RunningServer, opts: PhotoFields & { source?: string; create?: (file: string) => void }): Promise<PlacedPhoto> {
  const id = crypto.randomBytes(9).toString('base64url');
  const ext = path.extname(opts.original_filename ?? opts.source ?? '.jpg') || '.jpg';
  const rel = path.join('media', 'originals', `${id}${ext.toLowerCase()}`);
  const file = path.join(s.ctx.paths.root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (opts.source) fs.copyFileSync(opts.source, file);
  else if (opts.create) opts.create(file);
  else throw new Error('placePhoto needs a source or create');
  const size = fs.statSync(file).size;
  // Rows sort by upload time: a strictly increasing stamp keeps the archive order predictable.
  const stamp = new Date(Date.UTC(2026, 5, 7, 12, 0, 0) + seq++ * 1000).toISOString();
  const { source: _s, create: _c, ...fields } = opts;
  const row: NewPhotoRow = {
    id,
    original_filename: path.basename(opts.source ?? 'photo.jpg'),
    stored_path: rel,
    content_type: 'image/jpeg',
    file_size: size,
    // Unique like an upload's hash; the export computes its own from the bytes it sends.
    sha256: crypto.randomBytes(32).toString('hex'),
    width: null,
    height: null,
    orientation: null,
    duration: null,
    date_taken: null,
    camera_make: null,
    camera_model: null,
    status: 'complete',
    processing_error: null,
    thumb_path: null,
    display_path: null,
    is_visible: 0,
    upload_timestamp: stamp,
    approved_at: null,
    session_id: null,
    uploader_name: null,
    ...fields,
  };
  await s.ctx.db.insertInto('photos').values(row).execute();
  return { id, file, row };
}

/** A sparse file of `size` bytes (no disk used) with a marker at the start and the end. */
export function sparseFile(size: number, marker: string) {
  return (file: string) => {
    const fd = fs.openSync(file, 'w');
    fs.writeSync(fd, Buffer.from(`start:${marker}`), 0, undefined, 0);
    fs.writeSync(fd, Buffer.from(`end:${marker}`), 0, undefined, size - 64);
    fs.ftruncateSync(fd, size);
    fs.closeSync(fd);
  };
}

export function sha256File(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = crypto.createHash('sha256');
    fs.createReadStream(file)
      .on('data', (c) => h.update(c))
      .on('end', () => resolve(h.digest('hex')))
      .on('error', reject);
  });
}

/** Runs a command; resolves with its exit code and output. */
export function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/**
 * GETs a URL with node:http (leaner than fetch for gigabytes) straight into a file. Runs of zero
 * bytes (the sparse originals' holes) are skipped rather than written, so the file is as sparse as
 * its sources: the same bytes when read, without gigabytes of disk writes slowing the tests beside it.
 */
export function download(url: string, headers: Record<string, string>, file: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        const sparse = file !== '/dev/null';
        const fd = fs.openSync(file, 'w');
        const sink = new Writable({
          highWaterMark: 4 << 20,
          write(chunk: Buffer, _enc, done) {
            const at = bytes;
            bytes += chunk.length;
            if (sparse && isZero(chunk)) return done();
            fs.write(fd, chunk, 0, chunk.length, sparse ? at : null, (err) => done(err));
          },
          final(done) {
            // A hole at the end still counts: the file ends where the body ended.
            if (sparse) fs.ftruncateSync(fd, bytes);
            fs.close(fd, done);
          },
        });
        pipeline(res, sink).then(() => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }), reject);
      })
      .on('error', reject);
  });
}

const ZEROS = Buffer.alloc(1 << 20);
function isZero(chunk: Buffer): boolean {
  for (let i = 0; i < chunk.length; i += ZEROS.length) {
    const part = chunk.subarray(i, Math.min(chunk.length, i + ZEROS.length));
    if (!part.equals(ZEROS.subarray(0, part.length))) return false;
  }
  return true;
}

/** Streams a response body to a file without holding it in memory. */
export async function saveBody(res: Response, file: string): Promise<number> {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  const reader = res.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.length;
    if (!out.write(value)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  return bytes;
}
