// Media for bench:keepsakes, made before the server starts: 12 MP phone photos (JPEG with EXIF;
// landscape, portrait, and portrait as phones store it: landscape pixels turned by an EXIF
// orientation) whose pictures are soft colour fields with a grain, so they compress like photos;
// and 1080p clips with sound (ffmpeg's test pattern and a tone), landscape and portrait.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { pool } from './media-bench.js';

const run = promisify(execFile);
const W = 4032;
const H = 3024;

export interface KeepsakeMedia {
  photos: string[];
  clips: string[];
}

/** A grain shared by every photo (noise at a third of the size, enlarged): the detail a photo's JPEG spends its bytes on. */
async function grain(width: number, height: number): Promise<Buffer> {
  const small = crypto.randomBytes(Math.ceil(width / 3) * Math.ceil(height / 3));
  return sharp(small, { raw: { width: Math.ceil(width / 3), height: Math.ceil(height / 3), channels: 1 } }).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
}

async function makePhoto(file: string, n: number, textures: Record<'wide' | 'tall', Buffer>): Promise<void> {
  // Every third photo is a portrait: half of them stored upright, half as landscape pixels turned by EXIF.
  const portrait = n % 3 === 2;
  const upright = portrait && n % 2 === 0;
  const [width, height] = upright ? [H, W] : [W, H];
  // Soft colour fields: a few random colours enlarged smoothly, each photo its own.
  const fields = await sharp(crypto.randomBytes(6 * 5 * 3), { raw: { width: upright ? 5 : 6, height: upright ? 6 : 5, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const texture = textures[upright ? 'tall' : 'wide'];
  for (let i = 0, p = 0; i < fields.length; i += 3, p++) {
    const g = (texture[p] - 128) * 0.45;
    fields[i] = Math.max(0, Math.min(255, fields[i] + g));
    fields[i + 1] = Math.max(0, Math.min(255, fields[i + 1] + g));
    fields[i + 2] = Math.max(0, Math.min(255, fields[i + 2] + g));
  }
  const when = new Date(Date.UTC(2026, 5, 20, 13, 0, 0) + n * 97_000);
  const stamp = when.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
  await sharp(fields, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 88 })
    .withExif({ IFD0: { Make: 'Apple', Model: 'iPhone 15', DateTime: stamp }, IFD2: { DateTimeOriginal: stamp } })
    .withMetadata({ orientation: portrait && !upright ? 6 : 1 })
    .toFile(file);
}

async function makeClip(file: string, n: number): Promise<void> {
  const seconds = 5 + ((n * 7) % 16); // 5-20 s
  const size = n % 4 === 3 ? '1080x1920' : '1920x1080';
  await run('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=30`,
    '-f', 'lavfi', '-i', `sine=frequency=${330 + n * 40}:sample_rate=48000`,
    '-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '12M', '-maxrate', '12M', '-bufsize', '12M', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-b:a', '128k', '-metadata', `creation_time=2026-06-20T${String(14 + (n % 8)).padStart(2, '0')}:10:00Z`, '-movflags', '+faststart', file,
  ]);
}

/** Makes (or, when `dir` already holds them, finds) `photos` photos and `clips` clips in `dir`. */
export async function keepsakeMedia(dir: string, photos: number, clips: number): Promise<KeepsakeMedia> {
  fs.mkdirSync(dir, { recursive: true });
  const out: KeepsakeMedia = {
    photos: Array.from({ length: photos }, (_, i) => path.join(dir, `photo-${String(i).padStart(3, '0')}.jpg`)),
    clips: Array.from({ length: clips }, (_, i) => path.join(dir, `clip-${String(i).padStart(2, '0')}.mp4`)),
  };
  const missing = [...out.photos, ...out.clips].filter((f) => !fs.existsSync(f));
  if (!missing.length) return out;
  const textures = { wide: await grain(W, H), tall: await grain(H, W) };
  await pool(missing, os.availableParallelism(), async (f) => {
    const n = Number(/-(\d+)\./.exec(path.basename(f))![1]);
    const part = `${f}.part${path.extname(f)}`;
    if (f.endsWith('.jpg')) await makePhoto(part, n, textures);
    else await makeClip(part, n);
    fs.renameSync(part, f);
  });
  return out;
}
