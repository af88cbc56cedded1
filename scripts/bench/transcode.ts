// Video web copies. (1) Seconds of video re-encoded per second through the server (upload ->
// complete: probe, poster, then the re-encode job at nice 19) against plain ffmpeg with the same
// settings on the same file, in one run (goal >= 0.9). (2) The gallery's p99 while a long
// re-encode runs against the idle gallery (goal <= 1.5x).
// Run: npx tsx scripts/bench/transcode.ts [clip seconds, default 10] [size, default 1280x720]
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { probeVideo } from '../../server/processing/ffmpeg.js';
import { encodeArgs } from '../../server/processing/video.js';
import { BenchServer } from './bench-server.js';
import { upload, uploadAndWait, waitComplete } from './media-bench.js';

const SECONDS = Number(process.argv[2] ?? 10);
const SIZE = process.argv[3] ?? '1280x720';
const CLIENTS = 10;
const RUNS = 3;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/** The same clip with one more byte of metadata: a new upload, not a duplicate. */
function variant(file: string, i: number): string {
  const out = file.replace(/\.MOV$/, `-${i}.MOV`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', file, '-map', '0', '-c', 'copy', '-metadata', `comment=run ${i}`, out]);
  return out;
}
const WINDOW_MS = 8000;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-transcode-bench-'));

/** An iPhone-style clip: HEVC 10-bit BT.2020 HLG with AAC, portrait by a 90 degree display rotation. */
function iphoneClip(name: string, seconds: number): string {
  const flat = path.join(work, `${name}-flat.mov`);
  const out = path.join(work, `${name}.MOV`);
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=duration=${seconds}:size=${SIZE}:rate=30`, '-f', 'lavfi', '-i', `sine=duration=${seconds}`,
    '-metadata', `title=${name}`, '-c:v', 'libx265', '-preset', 'ultrafast',
    '-x265-params', 'log-level=error:colorprim=bt2020:transfer=arib-std-b67:colormatrix=bt2020nc', '-pix_fmt', 'yuv420p10le',
    '-color_primaries', 'bt2020', '-color_trc', 'arib-std-b67', '-colorspace', 'bt2020nc', '-tag:v', 'hvc1', '-c:a', 'aac', flat,
  ]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', flat, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', out]);
  return out;
}

async function plainFfmpeg(file: string): Promise<number> {
  const facts = await probeVideo({ ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' }, file);
  const t = performance.now();
  execFileSync('ffmpeg', encodeArgs(file, path.join(work, 'plain.mp4'), facts));
  return (performance.now() - t) / 1000;
}

/** CLIENTS loops of GET /api/photos (random pages) for WINDOW_MS; latencies in ms, sorted. */
async function galleryLatencies(base: string): Promise<number[]> {
  const out: number[] = [];
  const end = Date.now() + WINDOW_MS;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (Date.now() < end) {
        const t = performance.now();
        const r = await fetch(`${base}/api/photos?limit=20&offset=${20 * Math.floor(Math.random() * 50)}`);
        await r.arrayBuffer();
        out.push(performance.now() - t);
      }
    }),
  );
  return out.sort((a, b) => a - b);
}
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

/** 1000 visible photos straight into the server's database, so gallery pages have rows to read. */
function seed(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'wedding.db'));
  const insert = db.prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, width, height, status,
    thumb_path, display_path, derivative_version, is_visible, upload_timestamp) VALUES (?, ?, ?, 'image/jpeg', 2000000, ?, 4032, 3024, 'complete', ?, ?, 1, 1, ?)`);
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) {
      const id = crypto.randomBytes(12).toString('base64url');
      insert.run(id, `IMG_${i}.jpg`, `media/originals/${id}.jpg`, crypto.randomBytes(32).toString('hex'), `media/derived/${id}/thumb-v1.webp`, `media/derived/${id}/display-v1.webp`, new Date(Date.UTC(2026, 5, 20) + i * 1000).toISOString());
    }
  })();
  db.close();
}

try {
  console.log(`making two ${SECONDS} s ${SIZE} HEVC 10-bit HLG clips (rotated 90)...`);
  const a = iphoneClip('IMG_0001', SECONDS);
  const b = iphoneClip('IMG_0002', SECONDS);
  const server = await new BenchServer().start();
  try {
    // Alternating runs, the median of each: other work on the machine comes and goes.
    const plains: number[] = [];
    const apps: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      plains.push(await plainFfmpeg(a));
      const t = performance.now();
      await uploadAndWait(server.url, i === 0 ? a : variant(a, i));
      apps.push((performance.now() - t) / 1000);
    }
    const [plain, app] = [median(plains), median(apps)];
    console.log(`plain ffmpeg, same settings: ${(SECONDS / plain).toFixed(2)} s of video per s (median of ${plains.map((x) => x.toFixed(1)).join(', ')} s)`);
    console.log(`through server (upload -> complete, nice 19): ${(SECONDS / app).toFixed(2)} s of video per s (median of ${apps.map((x) => x.toFixed(1)).join(', ')} s)`);
    console.log(`ratio server/plain: ${(plain / app).toFixed(2)} (goal >= 0.9)`);

    seed(server.dataDir);
    const idle = await galleryLatencies(server.url);
    // Upload the second clip, then measure while its re-encode runs.
    const up = { photo_id: await upload(server.url, b) };
    let encoders = '';
    // Probe and poster first; then the encoder runs (ps exits 1 while there is none).
    for (let i = 0; i < 100 && !encoders; i++) {
      await new Promise((r) => setTimeout(r, 100));
      encoders = (() => {
        try {
          // The re-encode itself: `-movflags +faststart` is in its arguments, not in the poster's.
          const lines = execFileSync('ps', ['-o', 'ni=,args=', '-C', 'ffmpeg']).toString().trim().split('\n');
          return lines.find((l) => l.includes('+faststart'))?.trim() ?? '';
        } catch {
          return '';
        }
      })();
    }
    const busy = await galleryLatencies(server.url);
    const stillEncoding = (await (await fetch(`${server.url}/api/photos/${up.photo_id}/status`)).json()) as { status: string };
    await waitComplete(server.url, up.photo_id);
    console.log(`encoder during the busy window: nice ${encoders.split(' ')[0]} (${stillEncoding.status} at its end)`);
    console.log(`gallery idle: ${idle.length} requests, p50 ${pct(idle, 50).toFixed(1)} ms, p99 ${pct(idle, 99).toFixed(1)} ms`);
    console.log(`gallery during re-encode: ${busy.length} requests, p50 ${pct(busy, 50).toFixed(1)} ms, p99 ${pct(busy, 99).toFixed(1)} ms`);
    console.log(`ratio p99 busy/idle: ${(pct(busy, 99) / pct(idle, 99)).toFixed(2)} (goal <= 1.5)`);
  } finally {
    await server.stop();
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
