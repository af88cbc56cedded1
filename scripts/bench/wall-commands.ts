// The couple's remote against several open walls: how long from a command's POST until each wall
// shows it (an announcement's text in the page), over many commands. The server runs in its own
// process (as on the day). With --rush, bench:rush's guests upload, browse the gallery and have
// their photos approved against the same server (wall-rush.ts, a process of its own) and the
// commands are sent again while the uploads last; the run without it, first, is the baseline.
// Run: npm run bench:wall-commands -- [walls=5] [commands=60] [--every=500 (ms between announcements)] [--rush]
//   rush flags as bench:rush's: --guests=100 --photos=6 --videos=1 --photo-mb=2-9 --video-mb=10-30
//   --browsers=20 --distinct=8 (made files; the others distinct copies of them)
//   --rush-nice=N: the rush's process at nice N, the server and this process (which sends and
//     times the commands) at 0: on the day the phones have CPUs of their own, while here they
//     share the server's two cores (bench:rush's --uploaders-nice does the same for its guests).
//   --walls-nice=N (default 0): the walls' Chromium no higher than nice N. As root Chromium puts
//     its browser and GPU processes at -8, ahead of the server; on the day each wall is a machine
//     of its own, so by default they are held at 0 (every thread, checked every 500 ms), level
//     with the server. --walls-nice=chromium leaves them as Chromium sets them (the runs before
//     2026-12-07's evening)
// (needs the built client: node scripts/build.mjs)
import fs from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../test/helpers/browser.js';
import { sample } from '../../test/helpers/samples.js';
import { TestClient } from '../../test/helpers/server.js';
import { guestUpload, waitProcessed } from '../../test/e2e/wall-helpers.js';
import { RECOMMENDED_THREAD_POOL } from '../../server/threadpool.js';
import { BenchServer, children, jemallocPath } from './bench-server.js';
import { RushProcess, type RushPlan, type RushSummary } from './wall-rush.js';

/** p50, p99 and max of a series, in ms. */
export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface PhaseResult {
  /** Announcements sent (a "next" after every third). */
  commands: number;
  /** Until the wall shows it: the goal's figure. */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Its parts: the POST's answer, and the event's arrival in the wall's page (EventSource), per wall. */
  answered: Spread;
  /** GET /api/health, every 250 ms meanwhile: how long any request waits on the server. */
  health: Spread;
  arrived: Spread;
  /** Announcements a wall never showed (overtaken by the next before it drew, or lost), and of them the ones that never reached its page. */
  missed: number;
  lost: number;
  /** Load average (1 min) as the phase started and ended. */
  load: [number, number];
  /** CPU used meanwhile, in cores: the server with its media worker, the walls' browser, the rush's process. */
  cores: Record<'server' | 'walls' | 'rush', number>;
}

export interface CommandsResult {
  walls: number;
  baseline: PhaseResult;
  rush?: PhaseResult & { summary: RushSummary; media: { files: number; gb: number; seconds: number } };
}

const PASSWORD = 'bench-password-123';
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
const spread = (ms: number[]): Spread => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), max: sorted[sorted.length - 1] };
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () => +os.loadavg()[0].toFixed(1);

/** CPU seconds of `pid` and every process below it, finished ones its parents waited for included (Linux /proc). */
function cpuOfTree(pid: number | undefined): number {
  if (!pid) return 0;
  let ticks = 0;
  try {
    // Fields after the command's closing parenthesis: utime, stime, cutime, cstime are the 12th to 15th.
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  } catch {
    return 0;
  }
  return ticks / 100 + children(pid).reduce((n, c) => n + cpuOfTree(c), 0);
}

/** The CPU of the server's tree, the rush's and everything else this process started (the walls' Chromium). */
function cpuNow(serverPid: number, rushPid?: number): Record<'server' | 'walls' | 'rush', number> {
  const server = cpuOfTree(serverPid);
  const rush = cpuOfTree(rushPid);
  const mine = children(process.pid).reduce((n, c) => n + cpuOfTree(c), 0);
  return { server, rush, walls: mine - server - rush };
}

/**
 * A wall in Chromium that notes when each announcement arrives (its EventSource's event) and
 * when its text first appears (the same machine's clock as this process).
 */
async function openWall(browser: Awaited<ReturnType<typeof launchBrowser>>, base: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: Record<string, number> = {};
    const arrived: Record<string, number> = {};
    Object.assign(window, { __seen: seen, __arrived: arrived });
    const Source = window.EventSource;
    window.EventSource = class extends Source {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener('wall-announce', (e) => {
          const text = (JSON.parse((e as MessageEvent).data) as { text: string }).text;
          arrived[text] ??= Date.now();
        });
      }
    };
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="wall-announcement"]')?.textContent;
      if (text && !(text in seen)) seen[text] = Date.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(`${base}/wall`);
  await page.locator('.wall-slide img').first().waitFor({ timeout: 60_000 });
  return page;
}

/**
 * Sends announcements `everyMs` apart, at least `min` of them and on until `until` resolves
 * (when given), then reads when each wall showed each one.
 */
async function phase(admin: TestClient, pages: Page[], pids: [number, number?], label: string, everyMs: number, min: number, until?: Promise<unknown>): Promise<PhaseResult> {
  const loadStart = load();
  const cpuStart = cpuNow(...pids);
  const t0 = performance.now();
  const health: number[] = [];
  const probe = setInterval(() => {
    const t = Date.now();
    void fetch(`${admin.base}/api/health`).then((r) => r.arrayBuffer().then(() => health.push(Date.now() - t)), () => undefined);
  }, 250);
  let over = !until;
  void until?.then(() => (over = true));
  const sent: Record<string, number> = {};
  const answered: number[] = [];
  for (let i = 0; i < min || !over; i++) {
    const text = `${label} ${i}`;
    sent[text] = Date.now();
    const r = await admin.post('/admin/api/wall/announce', { text, seconds: 5 });
    answered.push(Date.now() - sent[text]);
    if (r.status !== 200) throw new Error(`announce: ${r.status}`);
    // Now and then a step too, as a couple would press next between announcements.
    if (i % 3 === 0) await admin.post('/admin/api/wall/command', { command: 'next' });
    await sleep(everyMs);
  }
  // Late ones still count, with their time.
  await sleep(3000);
  clearInterval(probe);
  const seconds = (performance.now() - t0) / 1000;
  const cpuEnd = cpuNow(...pids);
  const cores = { server: 0, walls: 0, rush: 0 };
  for (const k of Object.keys(cores) as (keyof typeof cores)[]) cores[k] = +((cpuEnd[k] - cpuStart[k]) / seconds).toFixed(2);
  const latencies: number[] = [];
  const arrivals: number[] = [];
  let missed = 0;
  let lost = 0;
  for (const page of pages) {
    const { seen, arrived } = await page.evaluate(() => {
      const w = window as unknown as Record<'__seen' | '__arrived', Record<string, number>>;
      return { seen: w.__seen, arrived: w.__arrived };
    });
    for (const [text, at] of Object.entries(sent)) {
      if (arrived[text] !== undefined) arrivals.push(arrived[text] - at);
      else lost++;
      if (seen[text] === undefined) missed++;
      else latencies.push(seen[text] - at);
    }
  }
  const shown = spread(latencies);
  return { commands: Object.keys(sent).length, p50Ms: shown.p50, p99Ms: shown.p99, maxMs: shown.max, answered: spread(answered), health: spread(health), arrived: spread(arrivals), missed, lost, load: [loadStart, load()], cores };
}

/** Every process below `pid`, itself included. */
function tree(pid: number): number[] {
  return [pid, ...children(pid).flatMap(tree)];
}

/** Holds every thread of the processes `roots()` gives, and those below them, at nice `n` or lower in priority; stops when called. */
function holdNice(roots: () => number[], n: number): () => void {
  const hold = () => {
    for (const pid of roots().flatMap(tree)) {
      const tasks = fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`).map(Number) : [];
      for (const tid of tasks) {
        try {
          if (os.getPriority(tid) < n) os.setPriority(tid, n);
        } catch {
          // gone meanwhile
        }
      }
    }
  };
  hold();
  const timer = setInterval(hold, 500);
  return () => clearInterval(timer);
}

/** Runs `start` with this process at nice `n`, so that the process it starts inherits it, then puts this one back at 0 (which takes root). */
async function niced<T>(n: number, start: () => Promise<T>): Promise<T> {
  if (!n) return start();
  os.setPriority(n);
  try {
    return await start();
  } finally {
    os.setPriority(0);
  }
}

export async function runWallCommands(opts: { walls: number; commands: number; everyMs?: number; rush?: RushPlan; rushNice?: number; wallsNice?: number | null; log?: (m: string) => void }): Promise<CommandsResult> {
  const log = opts.log ?? (() => undefined);
  const everyMs = opts.everyMs ?? 500;
  const nice = opts.rushNice ?? 0;
  // The rush's media first: making them takes the CPU, and must be over before anything is timed.
  const made = opts.rush ? await niced(nice, () => RushProcess.make(opts.rush!)) : undefined;
  if (made) log(`rush media: ${made.files} files, ${made.gb} GB, made in ${made.seconds} s`);
  // The server as the image starts it (bench:rush does the same): libuv's pool as recommended, jemalloc where installed.
  const jemalloc = jemallocPath();
  const server = await new BenchServer({ ADMIN_PASSWORD: PASSWORD, UV_THREADPOOL_SIZE: String(RECOMMENDED_THREAD_POOL), ...(jemalloc ? { LD_PRELOAD: jemalloc } : {}) }).start();
  const browser = await launchBrowser();
  if (nice) log(`the rush's process at nice ${nice}; the server and this process at ${os.getPriority()}`);
  const wallsNice = opts.wallsNice === undefined ? 0 : opts.wallsNice;
  // Not the walls: the server and the rush's process.
  const others = new Set([server.child.pid!, ...(made ? [made.rush.pid] : [])]);
  const release = wallsNice === null ? () => undefined : holdNice(() => children(process.pid).filter((c) => !others.has(c)), wallsNice);
  log(wallsNice === null ? "the walls' Chromium at the priorities it sets itself" : `the walls' Chromium held at nice ${wallsNice} or lower in priority`);
  try {
    const admin = new TestClient(server.url);
    await admin.login('admin', PASSWORD);
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await guestUpload(server.url, sample(['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg'][i % 3])));
    for (const id of ids) await waitProcessed(server.url, id);
    await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: ids, action: 'show' });
    const pages: Page[] = [];
    for (let i = 0; i < opts.walls; i++) pages.push(await openWall(browser, server.url));
    // The walls' first minutes (code, first photos) are not what is measured.
    await sleep(5000);

    log(`baseline: ${opts.commands} announcements to ${opts.walls} walls, no rush (load ${load()})`);
    const baseline = await phase(admin, pages, [server.child.pid!], 'Quiet', everyMs, opts.commands);
    if (!made) return { walls: opts.walls, baseline };
    log(`the rush starts (load ${load()}); announcements until every upload is answered`);
    const uploaded = made.rush.go(server.url, PASSWORD);
    void uploaded.then((u) => log(`every upload answered after ${u.seconds} s`));
    // The first guests' requests are on their way after a second or two.
    await sleep(2000);
    const rushed = await phase(admin, pages, [server.child.pid!, made.rush.pid], 'Rush', everyMs, opts.commands, uploaded);
    const summary = await made.rush.stop();
    return { walls: opts.walls, baseline, rush: { ...rushed, summary, media: { files: made.files, gb: made.gb, seconds: made.seconds } } };
  } finally {
    release();
    await browser.close();
    await server.stop();
  }
}

const line = (name: string, p: PhaseResult, base?: PhaseResult) =>
  `  ${name}: ${p.commands} announcements, shown p50 ${p.p50Ms} ms, p99 ${p.p99Ms} ms${base ? ` (x${(p.p99Ms / base.p99Ms).toFixed(2)} of the baseline's)` : ''}, max ${p.maxMs} ms, ${p.missed} not shown (${p.lost} of them never reached the page); load average ${p.load[0]} -> ${p.load[1]}\n` +
  `    of which: the POST answered p50 ${p.answered.p50} ms, p99 ${p.answered.p99} ms (GET /api/health meanwhile: p50 ${p.health.p50} ms, p99 ${p.health.p99} ms); the event in the wall's page p50 ${p.arrived.p50} ms, p99 ${p.arrived.p99} ms, max ${p.arrived.max} ms\n` +
  `    CPU meanwhile, in cores (of 2): server and media worker ${p.cores.server}, the walls' Chromium ${p.cores.walls}, the rush's clients ${p.cores.rush}`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const positional = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const args = new Map(process.argv.slice(2).filter((a) => a.startsWith('--')).map((a) => [a.slice(2).split('=')[0], a.split('=')[1] ?? 'true']));
  const num = (name: string, fallback: number) => Number(args.get(name) ?? fallback);
  const range = (name: string, fallback: string): [number, number] => {
    const [lo, hi] = (args.get(name) ?? fallback).split('-').map(Number);
    return [lo, hi ?? lo];
  };
  const rush: RushPlan | undefined = args.has('rush')
    ? { guests: num('guests', 100), photos: num('photos', 6), videos: num('videos', 1), photoMb: range('photo-mb', '2-9'), videoMb: range('video-mb', '10-30'), distinct: num('distinct', 8), browsers: num('browsers', 20) }
    : undefined;
  const walls = Number(positional[0] ?? 5);
  const r = await runWallCommands({ walls, commands: Number(positional[1] ?? 60), everyMs: num('every', 500), rushNice: num('rush-nice', 0), wallsNice: args.get('walls-nice') === 'chromium' ? null : num('walls-nice', 0), rush, log: (m) => console.log(m) });
  console.log(JSON.stringify(r, null, 2));
  console.log(`\nwall-commands: announcements from the remote's API to ${r.walls} open walls, until each shows it (goal: p99 < 1 s)`);
  console.log(line('without the rush (baseline)', r.baseline));
  if (r.rush) {
    const s = r.rush.summary;
    console.log(line('during the rush', r.rush, r.baseline));
    console.log(`  the rush: ${s.stored}/${s.files} files stored (${r.rush.media.gb} GB), ${s.failed} failed${s.errors.length ? ` (${s.errors.join('; ')})` : ''}, every upload answered after ${s.uploadSeconds} s; gallery page p99 ${s.galleryP99Ms ?? '-'} ms, chunk p99 ${s.chunkP99Ms ?? '-'} ms (timed in the rush's own process); ${s.approvals} bulk approvals`);
  }
  process.exit(0);
}
