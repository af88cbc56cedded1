// bench:keepsakes — the highlight film and the photo book against the goals, each with a
// baseline measured in the same run. The media (12 MP phone photos, a third of them portraits, and
// 1080p clips with sound: keepsakes-media.ts) are uploaded through the server, approved, and the
// film's photos and clips highlighted; then, with nothing else queued:
//   film: a --seconds film (180) of the --photos highlighted photos (100) and --clips clips (10),
//     asked for as the admin page does and followed until ready: its wall time and CPU time (the
//     server, the media worker and the tools it ran, from /proc), against the same film's whole
//     filter graph run by plain ffmpeg in one command (film.ts's filmInOneCommand: the same pieces,
//     chains, sound and encoder settings, at the same nice 19), timed by /usr/bin/time.
//     Goals: at most 1.25 x plain ffmpeg; under 10 minutes on 2 cores, its CPU time written down.
//   book: an A4 book (--paper) of all --book visible photos (300): server + media worker RSS,
//     sampled every 100 ms, at idle and at its peak, and pages a second, against PDFKit alone
//     putting the same originals in as they are onto as many pages (keepsakes-book.ts, at the
//     media worker's nice). Goals: under idle + 300 MiB; at least 10 pages a second.
// The load average is printed with the figures: the machine is shared.
// Needs the built server: node scripts/build.mjs && npm run bench:keepsakes -- [--photos=100
//   --clips=10 --book=300 --seconds=180 --paper=A4 --media-dir=DIR (keeps the media for the next run)
//   --only=film|book]
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Paper } from '../../common/keepsake-types.js';
import { dataPaths, localOriginals } from '../../server/context.js';
import { createKysely, openDatabase } from '../../server/db/open.js';
import { filmInOneCommand } from '../../server/keepsakes/film.js';
import { KeepsakePlanner } from '../../server/keepsakes/keepsake-planner.js';
import type { FilmPlan } from '../../server/processing/keepsake-plan.js';
import { WORKER_NICE } from '../../server/processing/media-worker-client.js';
import { SettingsService } from '../../server/settings/settings.service.js';
import { RECOMMENDED_THREAD_POOL } from '../../server/threadpool.js';
import { BenchServer, jemallocPath } from './bench-server.js';
import { KeepsakeRun, signedInAdmin } from './keepsake-client.js';
import { pdfFacts, type AloneAnswer } from './keepsakes-book.js';
import { keepsakeMedia } from './keepsakes-media.js';
import { pool, upload, waitComplete } from './media-bench.js';
import { approveAll } from './rush-clients.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const num = (name: string, fallback: number) => Number(args.get(name) ?? fallback);
const opts = { photos: num('photos', 100), clips: num('clips', 10), book: num('book', 300), seconds: num('seconds', 180), paper: (args.get('paper') ?? 'A4') as Paper, only: args.get('only') };
const PASSWORD = 'bench-password-123';
const MiB = 2 ** 20;
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
const min = (s: number) => `${Math.floor(s / 60)} min ${(s % 60).toFixed(0).padStart(2, '0')} s`;

if (!fs.existsSync(path.join(ROOT, 'dist/server/main.js'))) {
  console.error('Build the server first: node scripts/build.mjs');
  process.exit(2);
}

/** CPU seconds of a process: its own, and its children's once it has waited for them (Linux /proc, 100 ticks a second). */
function times(pid: number): { own: number; children: number } {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { own: (Number(f[11]) + Number(f[12])) / 100, children: (Number(f[13]) + Number(f[14])) / 100 };
}

/** Calls `sample` every 100 ms until stopped; the largest value it gave. */
function peakOf(sample: () => number): { stop(): number } {
  let peak = sample();
  const timer = setInterval(() => (peak = Math.max(peak, sample())), 100);
  return { stop: () => (clearInterval(timer), Math.max(peak, sample())) };
}

async function queueIdle(dataDir: string): Promise<void> {
  const db = openDatabase(path.join(dataDir, 'wedding.db'), { readonly: true });
  const busy = db.prepare("SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued', 'running')");
  while ((busy.get() as { n: number }).n > 0) await sleep(1000);
  db.close();
}

const duration = async (file: string) => Number((await exec('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file])).stdout);

async function main(): Promise<void> {
  const count = Math.max(opts.photos, opts.book);
  console.log(`bench:keepsakes: a ${opts.seconds} s film of ${opts.photos} photos and ${opts.clips} clips; a ${opts.paper} book of ${count} photos; ${os.availableParallelism()} cores, load average ${load()}`);
  const kept = args.get('media-dir');
  const work = kept ?? fs.mkdtempSync(path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'wedding-keepsakes-'));
  let t = performance.now();
  const media = await keepsakeMedia(work, count, opts.clips);
  console.log(`media: ${count} photos (12 MP), ${opts.clips} 1080p clips in ${work}, ready in ${((performance.now() - t) / 1000).toFixed(0)} s`);

  // The thread pool and jemalloc as the image starts the server (the media worker inherits jemalloc).
  const jemalloc = jemallocPath();
  const server = await new BenchServer({ ADMIN_PASSWORD: PASSWORD, UV_THREADPOOL_SIZE: String(RECOMMENDED_THREAD_POOL), ...(jemalloc ? { LD_PRELOAD: jemalloc } : {}) }).start();
  try {
    t = performance.now();
    const ids = new Map<string, string>();
    await pool([...media.clips, ...media.photos], 2, async (f) => void ids.set(f, await upload(server.url, f)));
    for (const id of ids.values()) await waitComplete(server.url, id);
    await approveAll(server.url, PASSWORD);
    const admin = await signedInAdmin(server.url, PASSWORD);
    for (const f of [...media.clips, ...media.photos.slice(0, opts.photos)]) {
      const r = await admin.post(`/admin/api/photos/${ids.get(f)}/highlight`, { highlighted: true });
      if (r.status !== 200) throw new Error(`highlight: ${r.status} ${JSON.stringify(r.body)}`);
    }
    await queueIdle(server.dataDir);
    console.log(`uploaded, processed (web copies included), approved and highlighted in ${((performance.now() - t) / 1000).toFixed(0)} s; jemalloc ${jemalloc ? 'preloaded' : 'not installed'}`);
    const [worker] = server.workerPids();
    const serverPid = server.child.pid!;
    await sleep(3000);

    // ---- the film: through the app, then plain ffmpeg ----
    if (opts.only !== 'book') {
      const loadFilm = load();
      const before = { server: times(serverPid), worker: times(worker) };
      const film = await KeepsakeRun.start(admin, { kind: 'film', source: 'highlights', seconds: opts.seconds });
      const filmDone = await film.done(90, 500);
      const after = { server: times(serverPid), worker: times(worker) };
      const tools = after.worker.children - before.worker.children;
      const appCpu = after.server.own - before.server.own + (after.worker.own - before.worker.own) + tools;
      const appFile = path.join(server.dataDir, 'media', 'keepsakes', `${film.id}.mp4`);

      const sqlite = openDatabase(path.join(server.dataDir, 'wedding.db'), { readonly: true });
      const db = createKysely(sqlite);
      const paths = dataPaths(server.dataDir);
      const planner = new KeepsakePlanner({ db, paths, settings: new SettingsService(db), originals: localOriginals(paths), publicUrl: undefined, ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe' });
      const row = await db.selectFrom('keepsakes').selectAll().where('id', '=', film.id).executeTakeFirstOrThrow();
      const baseDir = path.join(server.dataDir, 'baseline');
      fs.mkdirSync(baseDir, { recursive: true });
      const plan = (await planner.plan(row, baseDir)) as FilmPlan;
      const plainFile = path.join(baseDir, 'film.mp4');
      const command = await filmInOneCommand(plan, plainFile);
      const loadPlain = load();
      const timed = await exec('/usr/bin/time', ['-f', 'TIMED %e %U %S %M', 'nice', '-n', '19', 'ffmpeg', ...command], { maxBuffer: 64 * MiB });
      const [wall, user, sys, maxKb] = /TIMED ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(timed.stderr)!.slice(1).map(Number);
      sqlite.close();
      const pieces = command.filter((a) => a === '-i').length;
      console.log(`\nfilm (${plan.items.length} highlighted items, ${pieces} ffmpeg inputs in the one command):`);
      console.log(`  app:   ${min(filmDone.seconds)} asked -> ready (load ${loadFilm}); CPU ${min(appCpu)} (ffmpeg/ffprobe ${min(tools)}, media worker ${(after.worker.own - before.worker.own).toFixed(1)} s, server ${(after.server.own - before.server.own).toFixed(1)} s); ${(await duration(appFile)).toFixed(2)} s of film, ${(fs.statSync(appFile).size / 1e6).toFixed(1)} MB`);
      console.log(`  plain ffmpeg, one command: ${min(wall)} (load ${loadPlain}); CPU ${min(user + sys)}; its peak RSS ${(maxKb / 1024).toFixed(0)} MiB; ${(await duration(plainFile)).toFixed(2)} s of film, ${(fs.statSync(plainFile).size / 1e6).toFixed(1)} MB`);
      console.log(`  ratio app/plain: wall ${(filmDone.seconds / wall).toFixed(2)}, CPU ${(appCpu / (user + sys)).toFixed(2)} (goal <= 1.25); app CPU over 2 cores: ${min(appCpu / 2)} (goal under 10 min on 2 cores)`);
      fs.rmSync(baseDir, { recursive: true, force: true });
    }

    // ---- the book: through the app, then PDFKit alone ----
    if (opts.only !== 'film') {
      await sleep(3000);
      const rss = () => server.rss() + server.workerRss();
      const idle = peakOf(rss);
      await sleep(3000);
      const idleRss = idle.stop();
      const loadBook = load();
      const bookBefore = times(worker);
      const peak = peakOf(rss);
      const book = await KeepsakeRun.start(admin, { kind: 'book', source: 'visible', paper: opts.paper });
      const bookDone = await book.done(90);
      const peakRss = peak.stop();
      const bookCpu = times(worker).own - bookBefore.own;
      const bookFile = path.join(server.dataDir, 'media', 'keepsakes', `${book.id}.pdf`);
      const facts = pdfFacts(bookFile);
      const loadAlone = load();
      const job = { facts, sources: media.photos.slice(0, count), paper: opts.paper, output: path.join(server.dataDir, 'alone.pdf') };
      const ran = await exec('nice', ['-n', String(WORKER_NICE), process.execPath, '--import', 'tsx', path.join(ROOT, 'scripts/bench/keepsakes-book.ts'), JSON.stringify(job)], { maxBuffer: 16 * MiB });
      const aloneRun = JSON.parse(ran.stdout.trim().split('\n').pop()!) as AloneAnswer;
      const pagesApp = facts.pages / bookDone.seconds;
      const pagesAlone = facts.pages / aloneRun.seconds;
      console.log(`\nbook (${opts.paper}, ${facts.pages} pages, ${facts.images.length} images, ${(fs.statSync(bookFile).size / 1e6).toFixed(0)} MB):`);
      console.log(`  app:   ${bookDone.seconds.toFixed(1)} s asked -> ready (load ${loadBook}): ${pagesApp.toFixed(2)} pages/s (goal >= 10); media worker CPU ${(bookCpu / facts.pages).toFixed(2)} s a page`);
      console.log(`         server + media worker RSS: idle ${(idleRss / MiB).toFixed(0)} MiB, peak ${(peakRss / MiB).toFixed(0)} MiB: +${((peakRss - idleRss) / MiB).toFixed(0)} MiB (goal < +300 MiB)`);
      console.log(`  PDFKit alone, the same originals as they are, as many pages (nice ${WORKER_NICE}): ${aloneRun.seconds.toFixed(1)} s (load ${loadAlone}): ${pagesAlone.toFixed(2)} pages/s; CPU ${(aloneRun.cpu / facts.pages).toFixed(2)} s a page; its peak RSS ${(aloneRun.peakRss / MiB).toFixed(0)} MiB`);
      console.log(`  ratio app/alone: pages/s ${(pagesApp / pagesAlone).toFixed(2)}, CPU a page ${(bookCpu / aloneRun.cpu).toFixed(2)}`);
    }
    console.log(`\nload average at the end: ${load()}`);
  } finally {
    await server.stop();
    if (!kept) fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
