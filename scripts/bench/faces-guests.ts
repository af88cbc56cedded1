// bench:faces-guests — what guests feel of the face search, on a gallery of --gallery photos
// (default 500; one guest in every sixth) with the face workers stopped, as after being idle:
//   1. guests' gallery reads (20 browsers, no pacing) while nothing scans: the baseline;
//   2. a guest's selfie: time to the first match and to the end of the scan, while those 20
//      browsers go on reading (p50/p99 against 1.), and the face workers' memory;
//   3. the same gallery again after the workers stopped, with the face boxes kept from 2.
// --seconds caps how long 2. is followed (the scan goes on; the reads are compared over that time).
// Usage: npm run bench:faces-guests [-- --gallery=500 --workers=1 --nice=19 --seconds=600]
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
    await admin.put('/admin/api/settings', { face_search: true });
    const sqlite = openSqlite(path.join(server.dataDir, 'wedding.db'));
    const t0 = performance.now();
    const ids = await seedGallery(server.dataDir, sqlite, GALLERY);
    const truth = ids.filter((_, i) => showsGuest(i)).length;
    console.log(`seeded ${GALLERY} gallery photos in ${s(performance.now() - t0)} (${truth} show the guest)`);
    const selfie = await selfieFrom(GROUP_PHOTOS[0], FACE_IN_PHOTO_1);
    const workers = () => faceWorkers(server.child.pid!);

    // 1. and 2.: reads idle, then reads while the scan runs from a cold start.
    const readers = await Readers.start({ type: 'start', base: server.url, password: PASSWORD, browsers: 20, seeded: [], warmUpMs: 3000, harsh: false });
    await new Promise((r) => setTimeout(r, 13_000));
    readers.rush();
    const deadline = performance.now() + SECONDS * 1000;
    const cold = await sampled(workers, () => selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching || performance.now() > deadline));
    const coldCpu = cpuOfAll(workers());
    const read = await readers.stop();
    const rec = new Recorder();
    rec.merge(read.entries);
    const body = cold.value.body;
    const finished = !body.searching;
    console.log(`selfie to the first match: ${s(cold.value.first)} (goal < 10 s), face workers started cold`);
    console.log(`${finished ? 'all scanned' : `followed for ${s(cold.value.done)}: ${body.scanned} of ${body.total} scanned`} in ${s(cold.value.done)} (${(body.scanned / (cold.value.done / 1000)).toFixed(2)} photos/s); found ${body.matches.length} of the ${truth} photos that show her${finished ? '' : ` (${ids.slice(0, body.scanned).filter((_, i) => showsGuest(i)).length} among the photos scanned, newest first)`}`);
    console.log(`  ${(coldCpu / Math.max(1, body.scanned)).toFixed(2)} s of the face workers' CPU per photo (model loading and the selfie included)`);
    console.log(`face workers' RSS during it: peak ${mib(cold.peakEach)} per worker, ${mib(cold.peakSum)} together (goal < 700 MiB)`);
    report(rec, 'while the face search scans');

    // 3. Again, workers stopped (their codes gone), the boxes kept from 2.
    if (finished) {
      for (const pid of workers()) process.kill(pid, 'SIGKILL');
      const again = await selfieSearch(new TestClient(server.url), selfie, (b) => !b.searching);
      console.log(`same gallery with the face boxes kept: first match ${s(again.first)}, all in ${s(again.done)} (${(GALLERY / (again.done / 1000)).toFixed(2)} photos/s, x${(cold.value.done / again.done).toFixed(1)} the first scan)`);
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
