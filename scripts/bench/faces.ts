// bench:faces — "Find the photos you're in": the face engine against the engine as it was before
// its speed-ups (the baseline), and the app end to end against the bare engine, in one run.
//   1. the bare engine, baseline and now: the face workers alone (decode, detection, codes), no
//      server, on 12 MP phone JPEGs and on their 1920 px display copies: CPU seconds per photo
//      (the figure a busy machine distorts least), photos per second, peak RSS per worker;
//   2. the app end to end: a guest's selfie until the scan has gone through a gallery of those
//      display copies (what the server reads), photos per second and the ratio to 1.
// The time to a guest's first matches and guests' reads during a scan: bench:faces-guests.
// Usage: npm run bench:faces [-- --phones=24 --workers=1 --nice=19]
// (--nice: the face workers' priority, bare and in the app alike; 19 is what the server uses.)
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
import { cpuOfAll, faceWorkers, mib, sampled, selfieSearch } from './faces-common.js';
import { phonePhotos } from './faces-media.js';
import { pool } from './media-bench.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PHONES = arg('phones', 24);
const WORKERS = arg('workers', 1);
const NICE = arg('nice', 19);
const PASSWORD = 'bench-password-123';
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');

interface BareRun {
  rate: number;
  cpu: number;
}

/** Every file once through the face workers, WORKERS at a time: photos per second, CPU seconds per photo. */
async function bare(engine: FaceEngine, files: string[], tag: string): Promise<BareRun> {
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
  return { rate: files.length / ((performance.now() - t0) / 1000), cpu: (cpuOfAll(engine.pids) - cpu0) / files.length };
}

/** One engine (baseline or now) over the phone photos and their display copies. */
async function engineRun(baseline: boolean, phones: string[], displays: string[]) {
  const engine = new FaceEngine({ workers: WORKERS, idleMs: 600_000, nice: NICE, baseline });
  try {
    const run = await sampled(() => engine.pids, async () => ({ phone: await bare(engine, phones, 'phone'), display: await bare(engine, displays, 'display') }));
    const name = baseline ? 'baseline engine' : 'engine now';
    for (const [what, r] of [['12 MP JPEGs', run.value.phone], ['display copies', run.value.display]] as const) {
      console.log(`${name}, ${what}: ${r.cpu.toFixed(2)} s of CPU per photo, ${r.rate.toFixed(2)} photos/s`);
    }
    console.log(`${name}: RSS peak ${mib(run.peakEach)} per worker, ${mib(run.peakSum)} together`);
    return { ...run.value, rss: run.peakEach };
  } finally {
    await engine.stop();
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

    // 1. The bare engine, the baseline first and now, on the same files.
    const before = await engineRun(true, phones, displays);
    const now = await engineRun(false, phones, displays);
    const x = (a: number, b: number) => `x${(a / b).toFixed(2)}`;
    console.log(`now / baseline: CPU per photo ${x(now.phone.cpu, before.phone.cpu)} (12 MP), ${x(now.display.cpu, before.display.cpu)} (display); photos/s ${x(now.phone.rate, before.phone.rate)} (12 MP), ${x(now.display.rate, before.display.rate)} (display); RSS peak per worker ${x(now.rss, before.rss)}`);
    console.log(`on an idle 2-core machine that is ${(2 / now.display.cpu).toFixed(2)} photos/s with two workers (${(1 / now.display.cpu).toFixed(2)} with one), against ${(2 / before.display.cpu).toFixed(2)} before`);

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
      // Workers started and warm, as for the bare engine (a selfie with no gallery work to do).
      const warm = new TestClient(server.url);
      await selfieSearch(warm, selfie, (b) => !b.searching);
      await warm.del('/api/faces/me');
      await admin.del('/admin/api/faces');
      const appCpu0 = cpuOfAll(faceWorkers(server.child.pid!));
      const app = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching);
      console.log(`app: ${((cpuOfAll(faceWorkers(server.child.pid!)) - appCpu0) / PHONES).toFixed(2)} s of the face workers' CPU per photo (the selfie included)`);
      const appRate = PHONES / (app.done / 1000);
      console.log(`app end to end (selfie to the last of ${PHONES} display copies, face boxes not yet known): ${appRate.toFixed(2)} photos/s, ratio to the bare engine on the same files ${(appRate / now.display.rate).toFixed(2)}`);
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
