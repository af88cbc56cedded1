// A short clip's web copy while a long video is being re-encoded. Measured in one run on fresh
// servers: the time from a short clip's upload to its web copy alone (the baseline) and while a
// long clip is encoding (goal: at most one minute more), and what letting it go first costs the
// long clip. Before the encode lane ran the shortest clip first, the short one waited for the
// whole long encode; the figure printed for that is the long clip's encode time left when the
// short one arrived, measured the same way.
// Run: npx tsx scripts/bench/encode-lane.ts [long clip seconds, default 60] [short clip seconds, default 10]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BenchServer } from './bench-server.js';
import { upload, waitComplete } from './media-bench.js';

const LONG = Number(process.argv[2] ?? 60);
const SHORT = Number(process.argv[3] ?? 10);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-lane-bench-'));

/** A 720p clip that needs re-encoding (MPEG-4 Part 2 with MP3 audio), distinct per name. */
function clip(name: string, seconds: number): string {
  const out = path.join(work, `${name}.mp4`);
  execFileSync('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=duration=${seconds}:size=1280x720:rate=30`, '-f', 'lavfi', '-i', `sine=duration=${seconds}`,
    '-metadata', `title=${name}`, '-c:v', 'mpeg4', '-q:v', '12', '-c:a', 'libmp3lame', out,
  ]);
  return out;
}

/** Whether the server has an encoder running for `photoId` (its web copy's ffmpeg). */
function encoding(photoId: string): boolean {
  return fs.readdirSync('/proc').some((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmd.includes('libx264') && cmd.includes(photoId);
    } catch {
      return false;
    }
  });
}

/** Uploads `file`; `done` resolves with the seconds from the start of its upload to its web copy. */
async function timed(base: string, file: string): Promise<{ id: string; start: number; done: Promise<number> }> {
  const start = performance.now();
  const id = await upload(base, file);
  return { id, start, done: waitComplete(base, id).then(() => (performance.now() - start) / 1000) };
}

async function onFreshServer<T>(fn: (base: string) => Promise<T>): Promise<T> {
  const server = await new BenchServer().start();
  try {
    return await fn(server.url);
  } finally {
    await server.stop();
  }
}

try {
  const files = { short: clip('short-alone', SHORT), shortDuring: clip('short-during', SHORT), long: clip('long-alone', LONG), longWith: clip('long-with', LONG) };
  const shortAlone = await onFreshServer(async (base) => (await timed(base, files.short)).done);
  const longAlone = await onFreshServer(async (base) => (await timed(base, files.long)).done);
  const during = await onFreshServer(async (base) => {
    const long = await timed(base, files.longWith);
    while (!encoding(long.id)) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 2000)); // well into the long encode
    const short = await timed(base, files.shortDuring);
    return { shortDone: await short.done, longDone: await long.done, shortAfter: (short.start - long.start) / 1000 };
  });
  // Oldest first, one at a time: the short clip would have waited for what was left of the long clip's processing.
  const fifo = Math.max(0, longAlone - during.shortAfter) + shortAlone;
  const row = (what: string, s: number) => console.log(`${what.padEnd(58)} ${s.toFixed(1).padStart(7)} s`);
  console.log(`\nEncode lane: a ${SHORT} s clip and a ${LONG} s clip, 1280x720 MPEG-4, re-encoded at nice 19 (load: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  row('short clip alone, upload to web copy (baseline)', shortAlone);
  row('short clip while the long one encodes', during.shortDone);
  row('  extra wait (goal: at most 60 s)', during.shortDone - shortAlone);
  row('  oldest first, one at a time (before), estimated', fifo);
  row('long clip alone, upload to web copy', longAlone);
  row('long clip with the short one going first', during.longDone);
  console.log(`ratio short while long / alone: ${(during.shortDone / shortAlone).toFixed(2)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
