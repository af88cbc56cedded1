// 50 phone-size JPEGs through the server (upload -> complete) vs sharp alone making the same
// derivatives with the same concurrency, in one run. Run: npx tsx scripts/bench/processing.ts [count]
// Besides the wall time it gives the CPU time each side spent per photo (the server's process and
// its media worker, from /proc), which a machine loaded by other work distorts far less: the
// worker runs at nice 10 and gives way to that work, while the baseline runs at normal priority.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureSharp, writeImageDerivatives } from '../../server/processing/sharp.js';
import { sample } from '../../test/helpers/samples.js';
import { BenchServer } from './bench-server.js';
import { cpuOf } from './faces-common.js';
import { pool, waitComplete } from './media-bench.js';

const COUNT = Number(process.argv[2] ?? 50);
const CONCURRENCY = Number(process.env.PROCESSING_CONCURRENCY ?? os.availableParallelism());
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-processing-bench-'));

// Distinct files (bytes appended after the JPEG end marker) so duplicate detection does not hit.
const sources = ['hdr_iphone_hdr_YES.jpg', 'mobile_jolla.jpg'].map((f) => fs.readFileSync(sample(f)));
const files = Array.from({ length: COUNT }, (_, i) => {
  const p = path.join(work, `phone-${i}.jpg`);
  fs.writeFileSync(p, Buffer.concat([sources[i % 2], Buffer.from(`bench-${i}-${Date.now()}`)]));
  return p;
});

interface Timed {
  seconds: number;
  /** CPU seconds: the bench's own process for sharp alone; the server's process and its media worker. */
  cpu: number;
  workerCpu?: number;
  /** The first photo, with the media worker's start (not counted). */
  warmMs?: number;
}

async function sharpAlone(): Promise<Timed> {
  configureSharp(CONCURRENCY);
  const out = fs.mkdtempSync(path.join(work, 'out-'));
  const c = process.cpuUsage();
  const t = performance.now();
  await pool(files, CONCURRENCY, async (f) => {
    const base = path.join(out, path.basename(f, '.jpg'));
    await writeImageDerivatives(f, `${base}-display.webp`, `${base}-thumb.webp`);
  });
  const used = process.cpuUsage(c);
  return { seconds: (performance.now() - t) / 1000, cpu: (used.user + used.system) / 1e6 };
}

/** The media worker under the server's process (started on the first upload). */
function workerOf(server: BenchServer): number | undefined {
  const tasks = fs.readdirSync(`/proc/${server.child.pid}/task`);
  const kids = tasks.flatMap((t) => fs.readFileSync(`/proc/${server.child.pid}/task/${t}/children`, 'utf8').trim().split(' ').filter(Boolean).map(Number));
  return kids.find((pid) => fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker'));
}

async function uploadOne(base: string, f: string): Promise<string> {
  const form = new FormData();
  form.append('session_id', 'bench');
  form.append('file', new Blob([new Uint8Array(fs.readFileSync(f))]), path.basename(f));
  const res = await fetch(`${base}/api/upload`, { method: 'POST', body: form });
  const body = (await res.json()) as { photo_id: string };
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
  return body.photo_id;
}

/** Single-request uploads (POST /api/upload), then waits for every one to be complete. */
async function throughServer(): Promise<Timed> {
  const server = await new BenchServer({ PROCESSING_CONCURRENCY: String(CONCURRENCY) }).start();
  try {
    const base = server.url;
    // The media worker starts with the first upload: one photo first, not counted, so both sides
    // are measured warm (the baseline's sharp is loaded before its clock starts too).
    const warm = path.join(work, 'warm-up.jpg');
    fs.writeFileSync(warm, Buffer.concat([sources[0], Buffer.from(`warm-${Date.now()}`)]));
    const w0 = performance.now();
    await waitComplete(base, await uploadOne(base, warm));
    const warmMs = performance.now() - w0;
    const worker = workerOf(server);
    const workerCpu0 = worker ? cpuOf(worker) : 0;
    const cpu0 = cpuOf(server.child.pid!);
    const t = performance.now();
    const ids: string[] = [];
    // Three uploads at a time, like the guest page.
    await pool(files, 3, async (f) => {
      ids.push(await uploadOne(base, f));
    });
    for (const id of ids) await waitComplete(base, id);
    const seconds = (performance.now() - t) / 1000;
    return { seconds, cpu: cpuOf(server.child.pid!) - cpu0, workerCpu: worker ? cpuOf(worker) - workerCpu0 : 0, warmMs };
  } finally {
    await server.stop();
  }
}

const perPhoto = (cpu: number) => `${Math.round((cpu / COUNT) * 1000)} ms`;

try {
  const alone = await sharpAlone();
  const server = await throughServer();
  console.log(`${COUNT} phone JPEGs (3264x2448), processing concurrency ${CONCURRENCY}, load average ${os.loadavg()[0].toFixed(1)}`);
  console.log(`sharp alone:    ${(COUNT / alone.seconds).toFixed(2)} photos/s (${alone.seconds.toFixed(1)} s); CPU ${perPhoto(alone.cpu)} per photo`);
  console.log(
    `through server: ${(COUNT / server.seconds).toFixed(2)} photos/s (${server.seconds.toFixed(1)} s, upload -> complete); ` +
      `CPU ${perPhoto(server.cpu + server.workerCpu!)} per photo (media worker ${perPhoto(server.workerCpu!)}, server ${perPhoto(server.cpu)}); ` +
      `before them, the first photo with the worker's start: ${Math.round(server.warmMs!)} ms`,
  );
  console.log(`ratio server/sharp: ${(alone.seconds / server.seconds).toFixed(2)} (goal >= 0.8); CPU per photo, sharp/server: ${(alone.cpu / (server.cpu + server.workerCpu!)).toFixed(2)}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
