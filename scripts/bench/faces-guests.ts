// bench:faces-guests — what guests feel of the face search, on a gallery of --gallery photos
// (default 500; one guest in every sixth), while 20 browsers read the gallery with no pacing:
//   1. the guests' reads while nothing scans: the baseline;
//   2. the search turned on: every photo's face boxes measured ahead (the detector, before anyone
//      asks): photos/s, CPU per photo, the guests' reads meanwhile (p50/p99 against 1.);
//   3. a guest's selfie with the face workers stopped, as after being idle: time to the first
//      match and to the end of the scan, the reads meanwhile, and the face workers' memory;
//   4. with --cold: the same selfie on a gallery whose boxes are unknown (the scan detects itself).
// --seconds caps how long each part is followed.
// Usage: npm run bench:faces-guests [-- --gallery=500 --workers=1 --nice=19 --seconds=3600 --cold]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openSqlite } from '../../server/db/open.js';
import { FACE_IN_PHOTO_1 } from '../../test/server/faces-helpers.js';
import { GROUP_PHOTOS, selfieFrom } from '../../test/helpers/faces.js';
import { TestClient } from '../../test/helpers/server.js';
import { BenchServer } from './bench-server.js';
import { cpuOfAll, faceWorkers, mib, s, sampled, selfieSearch } from './faces-common.js';
import { seedGallery, showsGuest } from './faces-media.js';
import { Recorder } from './rush-http.js';
import { Readers, report } from './rush-report.js';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const GALLERY = arg('gallery', 500);
const WORKERS = arg('workers', 1);
const NICE = arg('nice', 19);
const SECONDS = arg('seconds', 3600);
const PASSWORD = 'bench-password-123';
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  console.log(`bench:faces-guests, ${os.availableParallelism()} cores, ${WORKERS} face workers at nice ${NICE}; load average at start ${load()}`);
  const server = await new BenchServer({ FACE_WORKERS: String(WORKERS), FACE_NICE: String(NICE) }).start();
  try {
    const admin = new TestClient(server.url);
    await admin.login('admin', PASSWORD);
    const sqlite = openSqlite(path.join(server.dataDir, 'wedding.db'));
    const t0 = performance.now();
    const ids = await seedGallery(server.dataDir, sqlite, GALLERY);
    const truth = ids.filter((_, i) => showsGuest(i)).length;
    console.log(`seeded ${GALLERY} gallery photos in ${s(performance.now() - t0)} (${truth} show the guest)`);
    const selfie = await selfieFrom(GROUP_PHOTOS[0], FACE_IN_PHOTO_1);
    const workers = () => faceWorkers(server.child.pid!);

    const toScan = async () => ((await admin.get('/admin/api/faces')).body.faces as { photos_to_scan: number }).photos_to_scan;

    // 1. and 2.: reads idle (the readers' baseline, before rush()), then while the search is
    // turned on and measures the seeded gallery's face boxes ahead.
    const readers = await Readers.start({ type: 'start', base: server.url, password: PASSWORD, browsers: 20, seeded: [], warmUpMs: 3000, harsh: false });
    await new Promise((r) => setTimeout(r, 13_000));
    readers.rush();
    await admin.put('/admin/api/settings', { face_search: false });
    const t = performance.now();
    await admin.put('/admin/api/settings', { face_search: true });
    const ahead = await sampled(workers, async () => {
      let left = GALLERY;
      while (performance.now() < t + SECONDS * 1000 && (left = await toScan()) > 0) await new Promise((r) => setTimeout(r, 500));
      return left;
    });
    const aheadMs = performance.now() - t;
    const aheadCpu = cpuOfAll(workers());
    const aheadRec = new Recorder();
    aheadRec.merge((await readers.stop()).entries);
    const measured = GALLERY - ahead.value;
    console.log(`boxes measured ahead: ${measured} of ${GALLERY} photos in ${s(aheadMs)} (${(measured / (aheadMs / 1000)).toFixed(2)} photos/s, ${(aheadCpu / Math.max(1, measured)).toFixed(2)} s of the face workers' CPU per photo, model loading included); RSS peak ${mib(ahead.peakEach)} per worker`);
    report(aheadRec, 'while the face boxes are measured ahead');

    // 3. A selfie, the workers stopped first (as after being idle): codes from the known boxes.
    for (const pid of workers()) process.kill(pid, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 500));
    const warmReaders = await Readers.start({ type: 'start', base: server.url, password: PASSWORD, browsers: 20, seeded: [], warmUpMs: 3000, harsh: false });
    await new Promise((r) => setTimeout(r, 13_000));
    warmReaders.rush();
    const deadline = performance.now() + SECONDS * 1000;
    const warm = await sampled(workers, () => selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching || performance.now() > deadline));
    const warmCpu = cpuOfAll(workers());
    const rec = new Recorder();
    rec.merge((await warmReaders.stop()).entries);
    const body = warm.value.body;
    console.log(`selfie to the first match: ${s(warm.value.first)} (goal < 10 s), face workers started cold, boxes known`);
    console.log(`${!body.searching ? 'all scanned' : `${body.scanned} of ${body.total} scanned`} in ${s(warm.value.done)} (${(body.scanned / (warm.value.done / 1000)).toFixed(2)} photos/s); found ${body.matches.length} of the ${truth} photos that show her`);
    console.log(`  ${(warmCpu / Math.max(1, body.scanned)).toFixed(2)} s of the face workers' CPU per photo (model loading and the selfie included)`);
    console.log(`face workers' RSS during it: peak ${mib(warm.peakEach)} per worker, ${mib(warm.peakSum)} together (goal < 700 MiB)`);
    report(rec, 'while a guest\'s scan runs (boxes known)');

    // 4. The same selfie on a gallery whose boxes are unknown.
    if (process.argv.includes('--cold')) {
      for (const pid of workers()) process.kill(pid, 'SIGKILL');
      sqlite.exec('DELETE FROM face_boxes');
      const cold = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching || performance.now() > deadline + SECONDS * 1000);
      console.log(`boxes unknown: first match ${s(cold.first)}, ${cold.body.scanned} scanned in ${s(cold.done)} (${(cold.body.scanned / (cold.done / 1000)).toFixed(2)} photos/s; x${(warm.value.done / body.scanned / (cold.done / cold.body.scanned)).toFixed(2)} the time per photo with boxes known)`);
    }
    sqlite.close();
  } finally {
    await server.stop();
  }
  console.log(`load average at the end ${load()}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
