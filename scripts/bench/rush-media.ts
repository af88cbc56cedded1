// Media for the rush benchmark, made before the server starts: phone-like JPEGs with EXIF
// (sharp) and MP4s with sound (ffmpeg), every file different so no upload is a duplicate.
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';

const run = promisify(execFile);

export interface MediaFile {
  path: string;
  size: number;
  sha256: string;
  kind: 'photo' | 'video';
}

export interface MediaPlan {
  dir: string;
  /** Prefix of the file names, so several sets can share a folder. */
  prefix: string;
  guests: number;
  photosPerGuest: number;
  videosPerGuest: number;
  /** MB ranges [min, max]; each file's size is drawn from its range. */
  photoMb: [number, number];
  videoMb: [number, number];
  /**
   * Made pictures and clips per kind; 0 makes every file. Beyond them each file is a copy of one
   * with 64 random bytes of its own (a JPEG comment, an MP4 'free' box): still a distinct,
   * valid file, made in a fraction of the time.
   */
  distinct?: number;
}

// Quality -> MB for upscaled noise at 12 MP (measured here); size scales with the pixel count.
const QUALITY_MB: [number, number][] = [[40, 1.8], [50, 2.3], [70, 3.5], [85, 4.8], [92, 6.2], [96, 8.2], [98, 10]];

function qualityFor(mb: number, megapixels: number): number {
  const at12 = (mb * 12) / megapixels;
  for (let i = 1; i < QUALITY_MB.length; i++) {
    const [q0, m0] = QUALITY_MB[i - 1];
    const [q1, m1] = QUALITY_MB[i];
    if (at12 <= m1) return Math.round(q0 + ((Math.max(at12, m0) - m0) / (m1 - m0)) * (q1 - q0));
  }
  return 98;
}

/** Distinct random seeds and pixels for each named set. */
const seedOf = (prefix: string) => [...prefix].reduce((a, c) => a * 31 + c.charCodeAt(0), 7) % 100_000;
const between = ([lo, hi]: [number, number]) => lo + Math.random() * (hi - lo);
const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** A noisy base picture (compresses like a photo, not like a flat test card), shared by all photos. */
async function basePicture(width: number, height: number): Promise<Buffer> {
  const small = crypto.randomBytes((width >> 2) * (height >> 2) * 3);
  return sharp(small, { raw: { width: width >> 2, height: height >> 2, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
}

async function makePhoto(base: Buffer, width: number, height: number, file: string, mb: number, n: number): Promise<void> {
  // A random block per file: the pixels, not only the metadata, differ from every other photo.
  const copy = Buffer.from(base);
  crypto.randomFillSync(copy, (n * 7919 * 3) % (copy.length - 65536), 65536);
  const when = new Date(Date.UTC(2026, 10, 22, 15, 0, n % 3600));
  const stamp = when.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
  const cameras = [['Apple', 'iPhone 15 Pro'], ['samsung', 'SM-S918B'], ['Google', 'Pixel 8'], ['Canon', 'Canon EOS R6']];
  const [make, model] = cameras[n % cameras.length];
  await sharp(copy, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: qualityFor(mb, (width * height) / 1e6) })
    .withExif({ IFD0: { Make: make, Model: model, DateTime: stamp }, IFD2: { DateTimeOriginal: stamp } } as never)
    .toFile(file);
}

async function makeVideo(file: string, mb: number, n: number): Promise<void> {
  // Shorter clips for small files keep the bitrate (and the encoding time) of a phone video.
  const seconds = mb >= 10 ? 8 : 4;
  const kbits = Math.max(300, Math.round((mb * 8 * 1000) / seconds) - 96);
  await run('ffmpeg', [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `testsrc2=size=${mb >= 10 ? '1280x720' : '854x480'}:rate=30,noise=alls=25:allf=t+u:all_seed=${n + 1}`,
    '-f', 'lavfi', '-i', `sine=frequency=${220 + (n % 500)}:sample_rate=44100`,
    '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', `${kbits}k`, '-maxrate', `${kbits}k`,
    '-bufsize', `${kbits}k`, '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '96k',
    '-metadata', `creation_time=2026-11-22T15:${String(n % 60).padStart(2, '0')}:00Z`, '-metadata', `comment=rush-${n}`,
    '-movflags', '+faststart', file,
  ]);
}

async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/** A copy of `from` at `to` whose bytes differ from every other copy's, still a valid file of its kind. */
function distinctCopy(from: string, to: string, kind: 'photo' | 'video'): void {
  const src = fs.readFileSync(from);
  const own = crypto.randomBytes(64);
  // JPEG: a comment segment (FF FE, its length) right after the start marker. MP4: a 'free' box at the end.
  const out = kind === 'photo'
    ? Buffer.concat([src.subarray(0, 2), Buffer.from([0xff, 0xfe, 0, own.length + 2]), own, src.subarray(2)])
    : Buffer.concat([src, Buffer.from([0, 0, 0, own.length + 8]), Buffer.from('free'), own]);
  fs.writeFileSync(to, out);
}

/** Generates every guest's files; returns them per guest (photos first, then videos). */
export async function generateMedia(plan: MediaPlan): Promise<MediaFile[][]> {
  fs.mkdirSync(plan.dir, { recursive: true });
  // Small sizes (quick runs) use a smaller picture so the JPEG stays realistic for its size.
  const big = plan.photoMb[1] >= 2;
  const [width, height] = big ? [4032, 3024] : [2016, 1512];
  const base = await basePicture(width, height);
  const jobs: { guest: number; kind: 'photo' | 'video'; n: number; file: string }[] = [];
  let n = 0;
  for (let g = 0; g < plan.guests; g++) {
    for (let i = 0; i < plan.photosPerGuest; i++) jobs.push({ guest: g, kind: 'photo', n: n++ + seedOf(plan.prefix), file: path.join(plan.dir, `${plan.prefix}g${g}-p${i}.jpg`) });
    for (let i = 0; i < plan.videosPerGuest; i++) jobs.push({ guest: g, kind: 'video', n: n++ + seedOf(plan.prefix), file: path.join(plan.dir, `${plan.prefix}g${g}-v${i}.mp4`) });
  }
  const out: MediaFile[][] = Array.from({ length: plan.guests }, () => []);
  const made = plan.distinct ? ['photo', 'video'].flatMap((kind) => jobs.filter((j) => j.kind === kind).slice(0, plan.distinct)) : jobs;
  await pool(made, os.availableParallelism(), async (j) => {
    if (j.kind === 'photo') await makePhoto(base, width, height, j.file, between(plan.photoMb), j.n);
    else await makeVideo(j.file, between(plan.videoMb), j.n);
  });
  const copied = jobs.filter((j) => !made.includes(j));
  for (const [i, j] of copied.entries()) {
    const like = made.filter((m) => m.kind === j.kind);
    distinctCopy(like[i % like.length].file, j.file, j.kind);
  }
  // Filled in job order so each guest's list is stable.
  for (const j of jobs) out[j.guest].push({ path: j.file, size: fs.statSync(j.file).size, sha256: sha(j.file), kind: j.kind });
  return out;
}
