// Gallery read throughput: GET /api/photos on the real server with 10,000 visible photos, against a
// bare Express route answering a same-shaped JSON page, measured in the same run on the same machine.
// Run: npx tsx scripts/bench/gallery.ts [seconds per target, default 10] [uploads/s for the last run, default 20]
// The last run keeps writing meanwhile: new (hidden) uploads, and every tenth one approved at once.
// Approvals are what empty the server's in-memory gallery pages: it shows the cost when guests
// upload and the couple approves while others browse.
// The servers run in a child process so the load generator does not share their event loop.
import { fork, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import express from 'express';

const PHOTOS = 10_000;
const CLIENTS = 20;
const PAGE = 20;

function galleryItem(i: number) {
  const id = crypto.randomBytes(12).toString('base64url');
  return {
    id,
    content_type: 'image/jpeg',
    thumbnail_url: `/media/${id}/thumb?v=1`,
    backblaze_url: `/media/${id}/display?v=1`,
    original_filename: `IMG_${1000 + i}.jpg`,
    upload_timestamp: new Date(Date.UTC(2026, 5, 20) + Math.floor(i / 3) * 1000).toISOString(),
    date_taken: new Date(Date.UTC(2026, 5, 20) + i * 1000).toISOString(),
    camera_make: 'Apple',
    camera_model: 'iPhone 15',
    width: 4032,
    height: 3024,
  };
}

async function serve(): Promise<void> {
  const { loadConfig } = await import('../../server/config.js');
  const { setLogLevel } = await import('../../server/log.js');
  const { startServer } = await import('../../server/server.js');
  const { openSqlite } = await import('../../server/db/open.js');
  setLogLevel('error');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-bench-'));
  const app = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-password-1', LOG_LEVEL: 'error' }));

  // The server's own connection only reads: the rows come in through one of this script's, in the
  // same process as before (the writes per second still share the event loop with the requests).
  const sqlite = openSqlite(app.ctx.paths.database);
  const insert = sqlite.prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, width, height,
    date_taken, camera_make, camera_model, status, thumb_path, display_path, derivative_version, is_visible, upload_timestamp)
    VALUES (@id, @original_filename, @stored_path, 'image/jpeg', 2000000, @sha, 4032, 3024, @date_taken, 'Apple', 'iPhone 15', 'complete',
    @thumb, @display, 1, @visible, @upload_timestamp)`);
  sqlite.transaction(() => {
    for (let i = 0; i < PHOTOS; i++) {
      const it = galleryItem(i);
      insert.run({ ...it, visible: 1, stored_path: `media/originals/${it.id}.jpg`, sha: crypto.randomBytes(32).toString('hex'), thumb: `media/derived/${it.id}/thumb-v1.webp`, display: `media/derived/${it.id}/display-v1.webp` });
    }
  })();
  sqlite.exec('PRAGMA optimize');

  const items = Array.from({ length: PHOTOS }, (_, i) => galleryItem(i));
  const bare = express();
  bare.get('/api/photos', (req, res) => {
    const limit = Math.min(Number(req.query.limit) || 20, 100);
    const offset = Number(req.query.offset) || 0;
    res.json({ success: true, photos: items.slice(offset, offset + limit), pagination: { total: PHOTOS, limit, offset, has_more: offset + limit < PHOTOS } });
  });
  const bareServer = http.createServer(bare).listen(0, '127.0.0.1');
  await new Promise((r) => bareServer.once('listening', r));
  process.send!({ app: app.url, bare: `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}` });
  let writer: NodeJS.Timeout | undefined;
  let uploads = 0;
  process.on('message', async (m) => {
    if (typeof m === 'object' && m && 'writes' in m) {
      clearInterval(writer);
      const perSecond = (m as { writes: number }).writes;
      if (perSecond > 0) {
        writer = setInterval(() => {
          const it = galleryItem(PHOTOS + uploads++);
          insert.run({ ...it, visible: 0, stored_path: `media/originals/${it.id}.jpg`, sha: crypto.randomBytes(32).toString('hex'), thumb: null, display: null });
          sqlite.prepare('UPDATE photos SET is_visible = ? WHERE id = ?').run(uploads % 10 === 0 ? 1 : 0, it.id);
        }, 1000 / perSecond);
      }
      process.send!({ ok: true });
      return;
    }
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send!({ cpu: u.user + u.system });
      return;
    }
    bareServer.close();
    await app.close(1000);
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

interface Result {
  /** Server CPU time per request (µs): robust to other load on the machine, unlike wall-clock figures. */
  cpuUs: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

let child: ChildProcess;
const serverCpu = () =>
  new Promise<number>((resolve) => {
    child.once('message', (m) => resolve((m as { cpu: number }).cpu));
    child.send('cpu');
  });

async function load(base: string, seconds: number): Promise<Result> {
  const cpuBefore = await serverCpu();
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const latencies: number[] = [];
  let errors = 0;
  const get = (p: string) =>
    new Promise<number>((resolve) => {
      const req = http.get(base + p, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', () => resolve(0));
    });
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let n = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const offset = (n++ * 37 * PAGE) % (PHOTOS - PAGE);
        const t = performance.now();
        const status = await get(`/api/photos?limit=${PAGE}&offset=${offset}`);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = (await serverCpu()) - cpuBefore;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))];
  return { cpuUs: cpu / latencies.length, requests: latencies.length, rps: latencies.length / elapsed, p50: pct(0.5), p99: pct(0.99), errors };
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 10);
  child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: [...process.execArgv, ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/gallery-prof'] : [])], stdio: 'inherit' });
  const urls = await new Promise<{ app: string; bare: string }>((resolve) => child.once('message', (m) => resolve(m as { app: string; bare: string })));

  // Sanity: the real route answers the page the benchmark asks for.
  const sample = await (await fetch(`${urls.app}/api/photos?limit=${PAGE}&offset=100`)).json();
  if (sample.photos?.length !== PAGE || sample.pagination?.total !== PHOTOS) throw new Error(`unexpected answer: ${JSON.stringify(sample).slice(0, 200)}`);

  await load(urls.app, 2); // warm-up: JIT, SQLite page cache
  await load(urls.bare, 2);
  const bare = await load(urls.bare, seconds);
  const app = await load(urls.app, seconds);
  const writesPerSecond = Number(process.argv[3] ?? 20);
  await new Promise((resolve) => {
    child.once('message', resolve);
    child.send({ writes: writesPerSecond });
  });
  const busy = await load(urls.app, seconds);
  child.send('stop');

  const f = (r: Result) => `${r.rps.toFixed(0).padStart(7)} req/s   server CPU ${r.cpuUs.toFixed(0).padStart(5)} µs/req   p50 ${r.p50.toFixed(2).padStart(6)} ms   p99 ${r.p99.toFixed(2).padStart(6)} ms   (${r.requests} requests, ${r.errors} errors)`;
  console.log(`GET /api/photos?limit=${PAGE}&offset=<varying>, ${PHOTOS} visible photos, ${CLIENTS} concurrent clients, ${seconds} s each, ${os.cpus().length} cores`);
  console.log(`bare Express route : ${f(bare)}`);
  console.log(`real /api/photos   : ${f(app)}`);
  console.log(`real + ${writesPerSecond} uploads/s, ${writesPerSecond / 10} approvals/s:\n                     ${f(busy)}`);
  const ratio = app.rps / bare.rps;
  console.log(`ratio real/bare    : ${ratio.toFixed(2)}  (goal >= 0.5: ${ratio >= 0.5 ? 'met' : 'MISSED'})`);
  const cpuRatio = bare.cpuUs / app.cpuUs;
  console.log(`CPU ratio bare/real: ${cpuRatio.toFixed(2)}  (the throughput ratio one free core would give)`);
  console.log(`p99 real           : ${app.p99.toFixed(2)} ms (goal < 25 ms: ${app.p99 < 25 ? 'met' : 'MISSED'})`);
  console.log(`ratio with writes  : ${(busy.rps / bare.rps).toFixed(2)}   p99 ${busy.p99.toFixed(2)} ms`);
}

if (process.argv.includes('--serve')) void serve();
else await main();
