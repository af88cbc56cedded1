import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { tempDir } from './server.js';

export type Answer = { status: number; body: any; retryAfter?: string | null };

async function send(url: string, form: FormData): Promise<Answer> {
  const res = await fetch(url, { method: 'POST', body: form });
  const text = await res.text();
  const retryAfter = res.headers.get('retry-after');
  try {
    return { status: res.status, body: JSON.parse(text), retryAfter };
  } catch {
    return { status: res.status, body: text, retryAfter };
  }
}

const blobOf = (data: Buffer | string) => (typeof data === 'string' ? new Blob([new Uint8Array(fs.readFileSync(data))]) : new Blob([new Uint8Array(data)]));

/** POST /api/upload with a file (bytes or a path) the way the client sends it. */
export function uploadFile(base: string, data: Buffer | string, filename = 'photo.jpg', sessionId = 'test-session'): Promise<Answer> {
  const form = new FormData();
  form.append('session_id', sessionId);
  form.append('file', blobOf(data), filename);
  return send(`${base}/api/upload`, form);
}

export interface ChunkForm {
  chunk_start: number;
  chunk_end: number;
  total_size: number;
  filename: string;
  session_id: string;
  is_last_chunk: boolean;
  upload_id?: string;
}

/** POST /api/upload-chunk; fieldsAfter puts the form fields after the file part. */
export function uploadChunk(base: string, bytes: Buffer, f: ChunkForm, fieldsAfter = false): Promise<Answer> {
  const form = new FormData();
  const fields = () => {
    for (const [k, v] of Object.entries(f)) if (v !== undefined) form.append(k, String(v));
  };
  if (!fieldsAfter) fields();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'blob');
  if (fieldsAfter) fields();
  return send(`${base}/api/upload-chunk`, form);
}

/** Sends a whole buffer in chunks like the client; returns the last answer. */
export async function chunkedUpload(base: string, data: Buffer, opts: { chunkSize: number; filename: string; sessionId?: string; uploadId?: string; from?: number }): Promise<Answer> {
  let last: Answer = { status: 0, body: null };
  for (let start = opts.from ?? 0; start < data.length; start += opts.chunkSize) {
    const end = Math.min(data.length, start + opts.chunkSize);
    last = await uploadChunk(base, data.subarray(start, end), {
      chunk_start: start,
      chunk_end: end,
      total_size: data.length,
      filename: opts.filename,
      session_id: opts.sessionId ?? 'test-session',
      is_last_chunk: end === data.length,
      upload_id: opts.uploadId,
    });
    if (last.status !== 200 && last.status !== 201) return last;
  }
  return last;
}

/** Polls the status route until it leaves 'processing'. */
export async function waitForStatus(base: string, photoId: string, timeoutMs = 60_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await fetch(`${base}/api/photos/${photoId}/status`).then((x) => x.json() as Promise<{ status: string }>);
    if (r.status !== 'processing') return r.status;
    if (Date.now() > deadline) throw new Error(`photo ${photoId} still processing`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

export const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** A small real image of the format, unique per seed so dedupe does not hit. */
export function tinyImage(format: 'png' | 'gif' | 'webp' | 'jpeg', seed = 0, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: 90 } } })
    .toFormat(format)
    .toBuffer();
}

/** A short real clip made by ffmpeg's test source: mp4 (h264), mov (h264, QuickTime) or avi (mjpeg). */
export function makeVideo(kind: 'mp4' | 'mov' | 'avi', extraArgs: string[] = [], seconds = 2): Buffer {
  const out = path.join(tempDir('wedding-video-'), `clip.${kind}`);
  const codec = kind === 'avi' ? ['-c:v', 'mjpeg', '-q:v', '5'] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x240:rate=10`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    ...codec, '-c:a', kind === 'avi' ? 'pcm_s16le' : 'aac', '-shortest', ...extraArgs, out,
  ]);
  return fs.readFileSync(out);
}
