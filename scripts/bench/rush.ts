// Rush hour: many guests upload at once while others browse the gallery and an admin works the
// queue. The same reads are measured first on the idle server (the baseline), then under the
// rush; printed per route with the ratio, plus the processing tail, errors and the server's RSS peak.
// Each request is timed from the moment it has a connection (the wait for one of a browser's six
// is the client's own queue, reported on its own line). The guests (uploads and their status
// polls) run in this process, the gallery browsers and the admin in a second one
// (rush-readers.ts), as they are separate devices on the day; both processes' event-loop delays
// are printed, since each is part of the times that process records.
// Needs the built server: node scripts/build.mjs && npm run bench:rush -- [--quick] [flags]
//   --guests=100 --photos=6 --videos=1 --photo-mb=2-9 --video-mb=10-30 --browsers=20 --idle=15
//   --warm-up=3 (seconds of reading before the idle baseline starts, not reported)
//   --threads=16 (UV_THREADPOOL_SIZE) --jobs=N (PROCESSING_CONCURRENCY) to compare settings
//   --uploaders-nice=N runs the uploading guests (this process's main thread) at nice N, the
//     server and the readers' process (gallery, admin, first requests) staying at 0: on the day
//     the phones have CPUs of their own, while here they share the server's two cores
//   --media-dir=DIR keeps the generated media for the next run with the same flags
//   --distinct=N makes only N photos and N videos, every other file a distinct copy of one
//   --allocator=jemalloc|glibc: the server's memory allocator; by default jemalloc, preloaded as
//     the image does, wherever libjemalloc2 is installed (glibc's keeps more memory: RSS higher)
//   --harsh: the day at its worst: each guest's first request (GET /api/stats) on a new
//     connection (made and timed by the readers' process, a phone apart from the uploads), each
//     gallery visitor on a new one, a phone arriving every 500 ms (idle too, for the baseline);
//     every chunk timed also from the client's last byte to the answer; the rush
//     phase ends once every upload is answered (the processing tail is waited for, not measured)
//   --no-turns: guests send each upload request at once, without asking for its turn first
//     (GET /api/upload-turn), as the page did before turns: the baseline for turns
//   --upload-mbps=N: each upload request's body goes no faster than N MB/s (phones on Wi-Fi),
//     where without it they go as fast as loopback carries them
//   --rtt-ms=N: each guest's request waits 1.5 x N ms before it goes and N/2 after its answer (a
//     new connection over a network with that round trip), the guests' uploads and polls only
//   --bucket: the site copies everything to an S3-compatible bucket (s3rver on loopback, in a
//     process of its own, its objects in memory) while the rush runs; after it settles, the time
//     until every acknowledged original is in the bucket, each checked byte for byte
//   --film=SECONDS: a highlight film of the seeded photos (default 180 s) is asked for as the rush
//     starts; how long its ffmpeg ran and was paused until the uploads were processed, and when it was ready
//   --one-address: every phone comes from 127.0.0.1, as behind one router's public address; by
//     default each has an address of its own on loopback, as on the venue's network (rush-http.ts)
//   RUSH_TRACE=FILE (environment): one JSON line per chunk (when it began, its size, its times)
// The media are made in memory (/dev/shm) when it has room, else in the temp folder: on the day
// the files come from the phones' own storage, and reading gigabytes of them from the server's
// disk during the rush would take the disk from the server being measured.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../server/db/open.js';
import { RECOMMENDED_THREAD_POOL } from '../../server/threadpool.js';
import { BenchServer, jemallocPath } from './bench-server.js';
import { KeepsakeRun, signedInAdmin } from './keepsake-client.js';
import { approveAll, guest, pollStatus, type Outcome, type Run } from './rush-clients.js';
import { Browser, connectionWaits, lagMonitor, limitUploadRate, percentile, phoneAddress, Recorder, shareOneAddress, simulateRoundTrip } from './rush-http.js';
import { Readers, report } from './rush-report.js';
import { generateMedia, type MediaFile } from './rush-media.js';
import { benchS3Client, S3Child } from './s3-child.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const quick = args.has('quick');
const harsh = args.has('harsh');
const num = (name: string, full: number, small: number) => Number(args.get(name) ?? (quick ? small : full));
const range = (name: string, full: string, small: string): [number, number] => {
  const [lo, hi] = (args.get(name) ?? (quick ? small : full)).split('-').map(Number);
  return [lo, hi ?? lo];
};
const opts = {
  guests: num('guests', 100, 8),
  photos: num('photos', 6, 2),
  videos: num('videos', 1, 1),
  photoMb: range('photo-mb', '2-9', '1-4'),
  videoMb: range('video-mb', '10-30', '3-6'),
  browsers: num('browsers', 20, 20),
  idleSeconds: num('idle', 15, 6),
  warmUpSeconds: num('warm-up', 3, 2),
  tailMinutes: num('tail-minutes', 15, 3),
  /** libuv's pool as the image starts the server; --threads=4 is libuv's default, for comparison. */
  threads: num('threads', RECOMMENDED_THREAD_POOL, RECOMMENDED_THREAD_POOL),
  /** PROCESSING_CONCURRENCY; 0 keeps the server's default (the number of cores). */
  jobs: num('jobs', 0, 0),
  uploadersNice: num('uploaders-nice', 0, 0),
  /** --distinct=N: make N photos and N videos, the rest distinct copies of them (rush-media.ts). */
  distinct: num('distinct', 0, 0),
  /** --allocator=jemalloc|glibc: the server's; jemalloc (as the image) wherever it is installed. */
  allocator: args.get('allocator') ?? (jemallocPath() ? 'jemalloc' : 'glibc'),
};
/** The jemalloc the server preloads, as the image does its own; undefined with glibc's allocator. */
const jemalloc = opts.allocator === 'jemalloc' ? jemallocPath() : undefined;
if ((opts.allocator !== 'jemalloc' && opts.allocator !== 'glibc') || (opts.allocator === 'jemalloc' && !jemalloc)) {
  console.error(`--allocator=${opts.allocator}: jemalloc (Debian: apt-get install libjemalloc2) or glibc`);
  process.exit(2);
}
const oneAddress = args.has('one-address');
shareOneAddress(oneAddress);
const PASSWORD = 'bench-password-123';
const MiB = 1024 * 1024;
/** statfs's type for tmpfs. */
const TMPFS_MAGIC = 0x01021994;

if (!fs.existsSync(path.join(ROOT, 'dist/server/main.js'))) {
  console.error('Build the server first: node scripts/build.mjs');
  process.exit(2);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Where the media are made: in memory when /dev/shm holds them with room to spare. */
function mediaParent(): string {
  const mean = ([lo, hi]: [number, number]) => (lo + hi) / 2;
  const bytes = opts.guests * (opts.photos * mean(opts.photoMb) + opts.videos * mean(opts.videoMb)) * MiB;
  try {
    const s = fs.statfsSync('/dev/shm');
    if (s.bavail * s.bsize > 1.5 * bytes + 2 * 1024 * MiB) return '/dev/shm';
  } catch {
    /* no /dev/shm */
  }
  return os.tmpdir();
}
/** --media-dir=DIR keeps the generated files there and reuses them when the same plan asks again. */
const keptMedia = args.get('media-dir');
const work = keptMedia ? (fs.mkdirSync(keptMedia, { recursive: true }), keptMedia) : fs.mkdtempSync(path.join(mediaParent(), 'wedding-rush-'));
const removeWork = () => keptMedia || fs.rmSync(work, { recursive: true, force: true });

/** The media of `plan`, made now or (with --media-dir) read back from an earlier run's list. */
async function mediaFor(plan: Parameters<typeof generateMedia>[0]): Promise<MediaFile[][]> {
  const list = path.join(work, `${plan.prefix || 'rush-'}plan.json`);
  const key = JSON.stringify({ ...plan, dir: undefined, guests: undefined });
  if (keptMedia && fs.existsSync(list)) {
    // A kept set made for as many guests or more serves a smaller run: its first guests' files.
    const saved = JSON.parse(fs.readFileSync(list, 'utf8')) as { key: string; media: MediaFile[][] };
    const media = saved.media.slice(0, plan.guests);
    if (saved.key === key && media.length === plan.guests && media.flat().every((f) => fs.existsSync(f.path))) return media;
  }
  const media = await generateMedia(plan);
  if (keptMedia) fs.writeFileSync(list, JSON.stringify({ key, media }));
  return media;
}

async function main(): Promise<void> {
  console.log(`rush: ${opts.guests} guests x (${opts.photos} photos of ${opts.photoMb.join('-')} MB + ${opts.videos} videos of ${opts.videoMb.join('-')} MB), ${opts.browsers} gallery browsers, 1 admin`);
  let t = performance.now();
  const plan = { dir: work, distinct: opts.distinct, photosPerGuest: opts.photos, videosPerGuest: opts.videos, photoMb: opts.photoMb, videoMb: opts.videoMb };
  const seed = (await mediaFor({ ...plan, prefix: 'seed-', guests: 1, photosPerGuest: quick ? 12 : 20, videosPerGuest: quick ? 0 : 1 }))[0];
  const media = await mediaFor({ ...plan, prefix: '', guests: opts.guests });
  const files = media.flat();
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const where = fs.statfsSync(work).type === TMPFS_MAGIC ? 'in memory (tmpfs)' : 'on disk';
  console.log(`media: ${files.length} files, ${(bytes / 1e9).toFixed(2)} GB, made in ${((performance.now() - t) / 1000).toFixed(0)} s, read from ${work} (${where})`);

  const env: Record<string, string> = { ADMIN_PASSWORD: PASSWORD, UV_THREADPOOL_SIZE: String(opts.threads) };
  if (opts.jobs) env.PROCESSING_CONCURRENCY = String(opts.jobs);
  // The media worker inherits it, as in the image.
  if (jemalloc) env.LD_PRELOAD = jemalloc;
  const allocator = jemalloc ? 'jemalloc, as the image (the media worker with WORKER_MALLOC_CONF)' : "glibc's (the image preloads jemalloc: apt-get install libjemalloc2 to measure as it runs)";
  console.log(`server: UV_THREADPOOL_SIZE=${opts.threads}, processing jobs at once: ${opts.jobs || 'default (cores)'}, memory allocator: ${allocator}`);
  if (args.has('rtt-ms')) console.log(`each guest's request pays a ${args.get('rtt-ms')} ms round trip (1.5 before it, 0.5 after its answer)`);
  if (args.has('upload-mbps')) console.log(`each upload request sends at most ${args.get('upload-mbps')} MB/s`);
  console.log(oneAddress ? 'every phone from 127.0.0.1 (--one-address), as behind one public address' : 'each phone from an address of its own (127.x.y.z on loopback), as on the venue\'s network');
  console.log(`uploads ${args.has('no-turns') ? 'sent at once, without turns (--no-turns)' : 'sent in their turn (GET /api/upload-turn first, as the page does)'}`);
  if (opts.uploadersNice) console.log(`uploading guests at nice ${opts.uploadersNice} (server and readers at 0)`);
  const bucket = args.has('bucket') ? await new S3Child(path.join(mediaParent(), `wedding-rush-bucket-${process.pid}`), 'rush').start() : undefined;
  if (bucket) {
    Object.assign(env, bucket.env());
    console.log(`bucket: the site copies to an S3-compatible bucket on loopback (s3rver, its own process) as uploads arrive`);
  }
  const server = await new BenchServer(env).start();
  const rec = new Recorder();
  let stop = false;
  let rssPeak = 0;
  let workerPeak = 0;
  let bothPeak = 0;
  const sampler = setInterval(() => {
    try {
      const [rss, worker] = [server.rss(), server.workerRss()];
      rssPeak = Math.max(rssPeak, rss);
      workerPeak = Math.max(workerPeak, worker);
      bothPeak = Math.max(bothPeak, rss + worker);
    } catch {
      /* exited */
    }
  }, 200);
  try {
    // Seed photos (uploaded, processed, approved) so the idle server has a gallery to read.
    const seedRun: Run = { rec: new Recorder(), stopped: () => false };
    const seeded = await guest(seedRun, server.url, seed, 'seed');
    await waitSettled(server.url, seeded, opts.tailMinutes);
    await approveAll(server.url, PASSWORD);

    const run: Run = { rec, stopped: () => stop, harsh, noTurns: args.has('no-turns') };
    const uploadMbps = Number(args.get('upload-mbps') ?? 0);
    limitUploadRate(uploadMbps * 1e6);
    simulateRoundTrip(Number(args.get('rtt-ms') ?? 0));
    const polled = seeded.filter((o) => o.photoId);
    const readers = await Readers.start({ type: 'start', base: server.url, password: PASSWORD, browsers: opts.browsers, seeded: polled, warmUpMs: opts.warmUpSeconds * 1000, harsh, oneAddress });
    if (harsh) run.visit = (address) => readers.visit(address);
    // After the readers' process was started (it keeps nice 0, as does the server).
    if (opts.uploadersNice) os.setPriority(0, opts.uploadersNice);
    await sleep(opts.warmUpSeconds * 1000);
    const clientLag = lagMonitor();
    await sleep(opts.idleSeconds * 1000);
    const idleLag = clientLag.stop();
    const filmAdmin = args.has('film') ? await signedInAdmin(server.url, PASSWORD) : undefined;
    const rushLag = lagMonitor();
    rec.phase = 'rush';
    readers.rush();
    const rssIdle = server.rss();
    const bothIdle = rssIdle + server.workerRss();
    console.log(`idle baseline measured for ${opts.idleSeconds} s; the rush starts`);

    t = performance.now();
    const film = args.has('film') ? (await KeepsakeRun.start(filmAdmin!, { kind: 'film', source: 'visible', seconds: Number(args.get('film')) || 180 })).watch(server.child.pid!) : undefined;
    const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
    let uploading = media.length;
    // --harsh: the readers stop 5 s after the last upload's answer, so the figures are the peak's.
    const peakOver = () => {
      if (--uploading === 0 && harsh) void sleep(5000).then(() => (stop = true));
    };
    const outcomes = (await Promise.all(media.map((own, g) => sleep(Math.random() * 2000).then(() => guest(run, server.url, own, `guest-${g}`, peakOver, phoneAddress('guest', g)))))).flat();
    const lastUpload = Math.max(...outcomes.map((o) => o.uploadedAt ?? 0));
    const readDone = harsh ? await readers.stop() : undefined;
    const rssPeakRush = Math.max(rssPeak, hwm(server));
    await waitSettled(server.url, outcomes, opts.tailMinutes);
    const lastSettled = Math.max(...outcomes.map((o) => o.settledAt ?? 0));
    stop = true;
    const read = readDone ?? (await readers.stop());
    rec.merge(read.entries);

    report(rec);
    const fiveXX = rec.routes().reduce((n, r) => n + (rec.get('idle', r)?.fiveXX ?? 0) + (rec.get('rush', r)?.fiveXX ?? 0), 0);
    console.log(`\n5xx answers in all: ${fiveXX}; load average (1/5/15 min) when the rush started: ${load}, at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
    if (harsh) console.log(`server RSS peak while uploads were under way: ${(rssPeakRush / MiB).toFixed(0)} MiB`);
    // Every figure above is timed by a client process whose own event-loop delay is part of it:
    // the uploaders' for uploads and status polls, the readers' for everything else.
    console.log(`\nevent-loop delay of the readers' process (gallery, admin): idle ${read.lag.idle}; rush ${read.lag.rush}`);
    console.log(`event-loop delay of the uploaders' process (uploads, status): idle ${idleLag}; rush ${rushLag.stop()}`);
    const waits = [...connectionWaits, ...read.waits].sort((a, b) => a - b);
    console.log(`waits for one of a browser's 6 connections (before the times above start): p50 ${percentile(waits, 50).toFixed(0)} ms, p99 ${percentile(waits, 99).toFixed(0)} ms, max ${(waits.at(-1) ?? 0).toFixed(0)} ms`);
    const failed = outcomes.filter((o) => o.error || o.status !== 'complete');
    const secs = (x: number) => `${(x / 1000).toFixed(1)} s`;
    console.log(`\nuploads: ${outcomes.length - outcomes.filter((o) => o.error).length}/${outcomes.length} stored, ${failed.length} not complete${failed.length ? ` (${failed.slice(0, 3).map((o) => o.error ?? o.status).join('; ')})` : ''}`);
    console.log(`rush: last upload answered after ${secs(lastUpload - t)}; last photo complete ${secs(lastSettled - lastUpload)} after it (processing tail)`);
    console.log(`processing throughput: ${(outcomes.length / ((lastSettled - t) / 1000)).toFixed(2)} files/s over the rush (${(bytes / MiB / ((lastSettled - t) / 1000)).toFixed(1)} MiB/s uploaded and processed)`);
    console.log(`server RSS: idle ${(rssIdle / MiB).toFixed(0)} MiB, peak ${(Math.max(rssPeak, hwm(server)) / MiB).toFixed(0)} MiB (goal < 700)`);
    console.log(`server + media worker RSS (sampled every 200 ms): idle ${(bothIdle / MiB).toFixed(0)} MiB, peak ${(bothPeak / MiB).toFixed(0)} MiB (goal < 700; the worker's own peak ${(workerPeak / MiB).toFixed(0)} MiB)`);
    console.log(`integrity: ${await verify(server.dataDir, outcomes)}`);
    if (bucket) console.log(`bucket: ${await inBucket(bucket, server.dataDir, outcomes, lastSettled)}`);
    if (film) console.log(await film.afterRush(t, lastSettled));
  } finally {
    clearInterval(sampler);
    await server.stop();
    await bucket?.stop();
    removeWork();
  }
}

/** Polls the outcomes guests stopped polling (they give up after 120 tries) until all settle, bounded. */
async function waitSettled(base: string, outcomes: Outcome[], minutes: number): Promise<void> {
  const b = new Browser(base);
  const deadline = performance.now() + minutes * 60_000;
  const quiet: Run = { rec: new Recorder(), stopped: () => performance.now() > deadline };
  for (let open = outcomes; open.length && !quiet.stopped(); await sleep(1000)) {
    open = outcomes.filter((o) => o.photoId && (!o.status || o.status === 'processing'));
    await Promise.all(open.slice(0, 50).map((o) => pollStatus(quiet, b, o, 1, 0)));
  }
  b.close();
}

function hwm(server: BenchServer): number {
  try {
    const status = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)![1]) * 1024;
  } catch {
    return 0;
  }
}

/** Every stored photo has the sent file's SHA-256 and size, and its original on disk hashes to it. */
async function verify(dataDir: string, outcomes: Outcome[]): Promise<string> {
  const db = openDatabase(path.join(dataDir, 'wedding.db'), { readonly: true });
  let bad = 0;
  let checked = 0;
  for (const o of outcomes) {
    if (!o.photoId) continue;
    const row = db.prepare('SELECT sha256, file_size, stored_path FROM photos WHERE id = ?').get(o.photoId) as { sha256: string; file_size: number; stored_path: string } | undefined;
    checked++;
    if (!row || row.sha256 !== o.file.sha256 || row.file_size !== o.file.size) {
      bad++;
      continue;
    }
    const hash = crypto.createHash('sha256');
    for await (const c of fs.createReadStream(path.join(dataDir, row.stored_path))) hash.update(c as Buffer);
    if (hash.digest('hex') !== row.sha256) bad++;
  }
  db.close();
  return bad ? `${bad} of ${checked} stored files differ from what was sent` : `all ${checked} stored files match what was sent (SHA-256 on disk)`;
}

/**
 * Waits (at most 10 minutes) until the site's record says every acknowledged original is copied,
 * then reads each object back from the bucket and checks its SHA-256 against what was sent.
 */
async function inBucket(bucket: S3Child, dataDir: string, outcomes: Outcome[], settledAt: number): Promise<string> {
  const db = openDatabase(path.join(dataDir, 'wedding.db'), { readonly: true });
  const acked = outcomes.filter((o) => o.photoId);
  const rows = acked.map((o) => ({ o, rel: (db.prepare('SELECT stored_path FROM photos WHERE id = ?').get(o.photoId) as { stored_path: string } | undefined)?.stored_path }));
  const copied = db.prepare(`SELECT COUNT(*) n FROM offsite_objects WHERE state = 'copied' AND rel IN (SELECT value FROM json_each(?))`);
  const rels = JSON.stringify(rows.map((r) => r.rel).filter(Boolean));
  const deadline = performance.now() + 10 * 60_000;
  while ((copied.get(rels) as { n: number }).n < acked.length && performance.now() < deadline) await sleep(500);
  const done = (copied.get(rels) as { n: number }).n;
  const after = (performance.now() - settledAt) / 1000;
  db.close();
  const { GetObjectCommand } = await import('@aws-sdk/client-s3');
  const client = benchS3Client(bucket.endpoint);
  let bad = 0;
  for (const { o, rel } of rows) {
    try {
      const body = (await client.send(new GetObjectCommand({ Bucket: bucket.bucket, Key: rel! }))).Body as AsyncIterable<Buffer>;
      const h = crypto.createHash('sha256');
      for await (const c of body) h.update(c);
      if (h.digest('hex') !== o.file.sha256) bad++;
    } catch {
      bad++;
    }
  }
  client.destroy();
  return `${done} of ${acked.length} acknowledged originals copied ${after.toFixed(0)} s after the last photo was complete (goal: all within 300 s); ${bad ? `${bad} differ from what was sent or are missing` : 'every object read back matches what was sent (SHA-256)'}`;
}

main().catch((e) => {
  console.error(e);
  removeWork();
  process.exit(1);
});
