// bench:faces — "Find the photos you're in" on this machine, against the bare model in the same run.
//   1. the bare model: the face workers alone (decode, detection at every level, codes), no server,
//      on 12 MP phone JPEGs and on their 1920 px display copies;
//   2. the app end to end: a guest's selfie until the scan has gone through a gallery of those
//      display copies (what the server reads), photos per second and the ratio to 1.;
//   3. a gallery of --gallery photos (default 500), face workers not running: time from the
//      selfie to the first match and to the end, guests' reads (20 browsers) before and during
//      that scan, the face workers' memory;
//   4. the same gallery again after the workers stopped (their memory of codes gone) with the
//      face boxes kept from 3.: what the kept boxes save.
// Usage: npm run bench:faces [-- --gallery=500 --phones=24 --workers=2 --nice=19]
// (--nice: the face workers' priority, bare and in the app alike; 19 is what the server uses.)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { openSqlite } from '../../server/db/open.js';
import { FaceEngine } from '../../server/faces/engine/face-engine.js';
import { FACE_IN_PHOTO_1 } from '../../test/server/faces-helpers.js';
import { GROUP_PHOTOS, selfieFrom } from '../../test/helpers/faces.js';
import { TestClient } from '../../test/helpers/server.js';
import { BenchServer } from './bench-server.js';
import { phonePhotos, seedGallery, showsGuest } from './faces-media.js';
import { pool } from './media-bench.js';
import { Recorder } from './rush-http.js';
import { Readers, report } from './rush-report.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const GALLERY = arg('gallery', 500);
const PHONES = arg('phones', 24);
const WORKERS = arg('workers', Math.min(2, os.availableParallelism()));
const NICE = arg('nice', 19);
const PASSWORD = 'bench-password-123';
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

function rssOf(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far (Linux /proc, 100 ticks a second). */
function cpuOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
const cpuOfAll = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuOf(pid), 0);

/** The face workers under a process: its children whose command line names face-worker. */
function faceWorkers(parent: number): number[] {
  // ps exits 1 when the process has no children.
  const out = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(parent)], { encoding: 'utf8' }).stdout;
  return out.split('\n').filter((l) => l.includes('face-worker')).map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Peak RSS of each face worker and of all of them together while `fn` runs. */
async function sampled<T>(pids: () => number[], fn: () => Promise<T>): Promise<{ value: T; peakEach: number; peakSum: number }> {
  let peakEach = 0;
  let peakSum = 0;
  const timer = setInterval(() => {
    const each = pids().map(rssOf);
    peakEach = Math.max(peakEach, ...each);
    peakSum = Math.max(peakSum, each.reduce((a, b) => a + b, 0));
  }, 250);
  try {
    return { value: await fn(), peakEach, peakSum };
  } finally {
    clearInterval(timer);
  }
}

/** The bare model: every file once through the face workers, WORKERS at a time; photos per second. */
async function bare(engine: FaceEngine, files: string[], tag: string): Promise<number> {
  // Networks loaded and warm in every worker before the clock starts.
  await Promise.all(Array.from({ length: engine.size }, (_, slot) => engine.picture(slot, `warm-${tag}-${slot}`, files[slot % files.length], null)));
  const t0 = performance.now();
  const cpu0 = cpuOfAll(engine.pids);
  let next = 0;
  await pool(Array.from({ length: engine.size }, (_, i) => i), engine.size, async (slot) => {
    while (next < files.length) {
      const i = next++;
      await engine.picture(slot, `${tag}-${i}`, files[i], null);
    }
  });
  console.log(`  bare model, ${tag}: ${((cpuOfAll(engine.pids) - cpu0) / files.length).toFixed(2)} s of CPU per photo`);
  return files.length / ((performance.now() - t0) / 1000);
}

async function selfieSearch(guest: TestClient, selfie: Buffer, until: (b: any) => boolean): Promise<{ first: number; done: number; body: any }> {
  const form = new FormData();
  form.append('consent', 'true');
  form.append('selfie', new Blob([new Uint8Array(selfie)], { type: 'image/jpeg' }), 'selfie.jpg');
  const t0 = performance.now();
  const res = await guest.fetch('/api/faces/me', { method: 'POST', body: form });
  if (res.status !== 200) throw new Error(`selfie: ${res.status} ${await res.text()}`);
  let first = Infinity;
  for (;;) {
    const r = await guest.get('/api/faces/me');
    if (r.body.matches?.length && first === Infinity) first = performance.now() - t0;
    if (until(r.body)) return { first, done: performance.now() - t0, body: r.body };
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function main(): Promise<void> {
  const shm = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  const work = fs.mkdtempSync(path.join(shm, 'wedding-faces-bench-'));
  console.log(`bench:faces, ${os.availableParallelism()} cores, ${WORKERS} face workers at nice ${NICE}; load average at start ${load()}`);
  try {
    const phones = await phonePhotos(work, PHONES);
    const displays = await Promise.all(phones.map(async (f) => {
      const out = f.replace(/\.jpg$/, '-display.webp');
      await sharp(f).resize(1920, 1920, { fit: 'inside' }).webp({ quality: 80 }).toFile(out);
      return out;
    }));
    const selfie = await selfieFrom(GROUP_PHOTOS[0], FACE_IN_PHOTO_1);

    // 1. The bare model.
    const engine = new FaceEngine({ workers: WORKERS, idleMs: 600_000, scratchDir: shm, nice: NICE });
    const bareRun = await sampled(() => engine.pids, async () => ({ phone: await bare(engine, phones, 'phone'), display: await bare(engine, displays, 'display') }));
    await engine.stop();
    console.log(`bare model: 12 MP JPEGs ${bareRun.value.phone.toFixed(2)} photos/s, their display copies ${bareRun.value.display.toFixed(2)} photos/s; RSS peak ${mib(bareRun.peakEach)} per worker, ${mib(bareRun.peakSum)} together`);

    // 2. The app end to end on the same display copies.
    const server = await new BenchServer({ FACE_WORKERS: String(WORKERS), FACE_NICE: String(NICE) }).start();
    try {
      const admin = new TestClient(server.url);
      await admin.login('admin', PASSWORD);
      await admin.put('/admin/api/settings', { face_search: true });
      const sqlite = openSqlite(path.join(server.dataDir, 'wedding.db'));
      const insert = sqlite.prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, width, height, status, display_path, thumb_path, is_visible, upload_timestamp)
        VALUES (?, ?, ?, 'image/jpeg', 3000000, ?, 4032, 3024, 'complete', ?, ?, 1, ?)`);
      displays.forEach((f, i) => {
        const rel = `media/derived/phone-${i}/display-v1.webp`;
        fs.mkdirSync(path.join(server.dataDir, path.dirname(rel)), { recursive: true });
        fs.copyFileSync(f, path.join(server.dataDir, rel));
        insert.run(`phone${i}`, `phone-${i}.jpg`, `media/originals/phone-${i}.jpg`, `sha-phone-${i}`, rel, rel, new Date(Date.UTC(2026, 5, 1) + i * 1000).toISOString());
      });
      // Workers started and warm, as for the bare model (a selfie with no gallery work to do).
      const warm = new TestClient(server.url);
      await selfieSearch(warm, selfie, (b) => !b.searching);
      await warm.del('/api/faces/me');
      await admin.del('/admin/api/faces');
      const appCpu0 = cpuOfAll(faceWorkers(server.child.pid!));
      const app = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching);
      console.log(`  app: ${((cpuOfAll(faceWorkers(server.child.pid!)) - appCpu0) / PHONES).toFixed(2)} s of the face workers' CPU per photo`);
      const appRate = PHONES / (app.done / 1000);
      console.log(`app end to end (selfie to the last of ${PHONES} display copies, face boxes not yet known): ${appRate.toFixed(2)} photos/s, ratio to the bare model on the same files ${(appRate / bareRun.value.display).toFixed(2)}`);

      // 3. A gallery of GALLERY photos, face workers stopped (as after being idle), guests reading.
      sqlite.prepare(`DELETE FROM photos WHERE id LIKE 'phone%'`).run();
      const t0 = performance.now();
      const ids = await seedGallery(server.dataDir, sqlite, GALLERY);
      console.log(`seeded ${GALLERY} gallery photos in ${s(performance.now() - t0)} (${ids.filter((_, i) => showsGuest(i)).length} show the guest)`);
      for (const pid of faceWorkers(server.child.pid!)) process.kill(pid, 'SIGKILL');
      const readers = await Readers.start({ type: 'start', base: server.url, password: PASSWORD, browsers: 20, seeded: [], warmUpMs: 3000 });
      await new Promise((r) => setTimeout(r, 13_000));
      readers.rush();
      const cold = await sampled(() => faceWorkers(server.child.pid!), () => selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching));
      const coldCpu = cpuOfAll(faceWorkers(server.child.pid!));
      const read = await readers.stop();
      const rec = new Recorder();
      rec.merge(read.entries);
      const found = cold.value.body.matches.length;
      const truth = ids.filter((_, i) => showsGuest(i)).length;
      const coldRate = GALLERY / (cold.value.done / 1000);
      console.log(`gallery of ${GALLERY}, face workers cold: first match ${s(cold.value.first)} after the selfie (goal < 10 s), all scanned in ${s(cold.value.done)} (${coldRate.toFixed(2)} photos/s); found ${found} of the ${truth} photos that show her`);
      console.log(`  ${(coldCpu / GALLERY).toFixed(2)} s of the face workers' CPU per photo (model loading included)`);
      console.log(`face workers' RSS during it: peak ${mib(cold.peakEach)} per worker, ${mib(cold.peakSum)} together (goal < 700 MiB)`);
      report(rec, 'while the face search scans');

      // 4. Again, workers stopped (their codes gone), boxes kept from 3.
      for (const pid of faceWorkers(server.child.pid!)) process.kill(pid, 'SIGKILL');
      const again = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching);
      console.log(`  ${(cpuOfAll(faceWorkers(server.child.pid!)) / GALLERY).toFixed(2)} s of the face workers' CPU per photo (model loading included)`);
      const boxedRate = GALLERY / (again.done / 1000);
      console.log(`same gallery with the face boxes kept: first match ${s(again.first)}, all in ${s(again.done)} (${boxedRate.toFixed(2)} photos/s, x${(boxedRate / coldRate).toFixed(1)} the first scan)`);
      const warmAgain = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching);
      console.log(`a further guest while the workers still hold the codes: all ${GALLERY} in ${s(warmAgain.done)}`);
      sqlite.close();
    } finally {
      await server.stop();
    }
    console.log(`load average at the end ${load()}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
