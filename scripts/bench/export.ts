// Export benchmark: ZIP download throughput against plainly reading the same files, and
// the server's peak memory while streaming a 1 GB and a 10 GB archive.
//   npx tsx scripts/bench/export.ts            (builds first; --no-build to skip)
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/open.js';
import { benchPort } from './bench-server.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const MB = 1024 * 1024;
const GB = 1024 * MB;
const ADMIN = { username: 'admin', password: 'bench-password-123' };

const fmt = (bytes: number, ms: number) => `${((bytes / MB) / (ms / 1000)).toFixed(0)} MB/s`;

if (!process.argv.includes('--no-build')) {
  const b = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--quiet'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-bench-export-'));
const port = benchPort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.js')], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', COUPLE_NAMES: 'Emma & James' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const cleanup = () => {
  if (server.exitCode === null) server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', cleanup);
process.on('SIGINT', () => process.exit(130));

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(base + '/api/health')).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function login(): Promise<string> {
  const r = await fetch(base + '/admin/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (!r.ok) throw new Error(`login failed: ${r.status}`);
  return r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Originals placed the way uploads leave them, rows inserted next to the running server (WAL). */
function placeFiles(specs: { name: string; size: number; sparse: boolean; visible: boolean }[]): string[] {
  const db = openDatabase(path.join(dataDir, 'wedding.db'));
  db.exec('PRAGMA busy_timeout = 5000');
  const insert = db.prepare(
    `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp, date_taken, camera_make, camera_model, status, is_visible)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'Canon', 'Canon EOS 40D', 'complete', ?)`,
  );
  const dir = path.join(dataDir, 'media', 'originals');
  fs.mkdirSync(dir, { recursive: true });
  const block = crypto.randomBytes(4 * MB); // incompressible, like JPEG and video data
  const files: string[] = [];
  let t = Date.UTC(2026, 5, 7, 14, 0, 0);
  for (const s of specs) {
    const id = crypto.randomBytes(9).toString('base64url');
    const rel = path.join('media', 'originals', id + path.extname(s.name));
    const file = path.join(dataDir, rel);
    const fd = fs.openSync(file, 'w');
    if (s.sparse) {
      fs.writeSync(fd, block, 0, 4096, 0);
      fs.ftruncateSync(fd, s.size);
    } else {
      for (let off = 0; off < s.size; off += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, s.size - off), off);
      fs.writeSync(fd, crypto.randomBytes(16), 0, 16, 0); // distinct files
    }
    fs.closeSync(fd);
    const type = s.name.endsWith('.mp4') ? 'video/mp4' : 'image/jpeg';
    insert.run(id, s.name, rel, type, s.size, crypto.randomBytes(32).toString('hex'), new Date((t += 1000)).toISOString(), '2026-06-07T16:42:10', s.visible ? 1 : 0);
    files.push(file);
  }
  db.close();
  return files;
}

/** Reads the files start to end, 1 MiB at a time, and throws the bytes away. */
async function readFiles(files: string[], hash: boolean): Promise<{ bytes: number; ms: number }> {
  const t0 = performance.now();
  let bytes = 0;
  for (const f of files) {
    const h = hash ? crypto.createHash('sha256') : undefined;
    for await (const chunk of fs.createReadStream(f, { highWaterMark: MB })) {
      bytes += (chunk as Buffer).length;
      h?.update(chunk as Buffer);
    }
    h?.digest();
  }
  return { bytes, ms: performance.now() - t0 };
}

/** Drops the files from the page cache (posix_fadvise DONTNEED through dd) so the next read hits the disk. */
function evict(files: string[]): void {
  for (const f of files) spawnSync('dd', [`if=${f}`, 'iflag=nocache', 'count=0', 'status=none']);
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Downloads an export, discarding it, while sampling the server's resident memory. */
function download(query: string, cookie: string): Promise<{ bytes: number; ms: number; peakRss: number; firstByteMs: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let peakRss = rssOf(server.pid!);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssOf(server.pid!))), 25);
    http
      .get(`${base}/admin/api/export.zip?${query}`, { headers: { cookie } }, (res) => {
        const firstByteMs = performance.now() - t0;
        if (res.statusCode !== 200) reject(new Error(`export answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          clearInterval(sampler);
          peakRss = Math.max(peakRss, rssOf(server.pid!));
          resolve({ bytes, ms: performance.now() - t0, peakRss, firstByteMs });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

await waitForServer();
const cookie = await login();

// 1 GB of photo-sized and video-sized real files (visible), plus 9 GB of sparse videos (hidden).
const photoSpecs = Array.from({ length: 200 }, (_, i) => ({ name: `IMG_${1000 + i}.jpg`, size: 4 * MB, sparse: false, visible: true }));
const videoSpecs = Array.from({ length: 1 }, (_, i) => ({ name: `VID_${i}.mp4`, size: 224 * MB, sparse: false, visible: true }));
const bigSpecs = Array.from({ length: 9 }, (_, i) => ({ name: `LONG_${i}.mp4`, size: GB, sparse: true, visible: false }));
console.log('Preparing 1 GB of real files and 9 GB of sparse ones ...');
const smallSet = placeFiles([...photoSpecs, ...videoSpecs]);
placeFiles(bigSpecs);
const smallBytes = smallSet.reduce((n, f) => n + fs.statSync(f).size, 0);

const best = async (rounds: number, cold: boolean, fn: () => Promise<number>): Promise<number> => {
  let min = Infinity;
  for (let i = 0; i < rounds; i++) {
    if (cold) evict(smallSet);
    else await readFiles(smallSet, false);
    min = Math.min(min, await fn());
  }
  return min;
};
const zipOnce = async () => {
  const d = await download('scope=visible', cookie);
  zipBytes = d.bytes;
  firstByte = Math.min(firstByte, d.firstByteMs);
  return d.ms;
};
let zipBytes = 0;
let firstByte = Infinity;
const line = (label: string, ms: number) => console.log(`  ${label.padEnd(42)} ${fmt(smallBytes, ms).padStart(10)}  (${ms.toFixed(0)} ms)`);

console.log(`\nThroughput over ${(smallBytes / GB).toFixed(2)} GB (${smallSet.length} files), best of 3 each:`);
console.log(' From disk (each run starts with the files evicted from the page cache):');
const coldRead = await best(3, true, async () => (await readFiles(smallSet, false)).ms);
const coldZip = await best(3, true, zipOnce);
line('read the files', coldRead);
line('ZIP export over HTTP', coldZip);
console.log(`  ratio export / read:                       ${(coldRead / coldZip).toFixed(2)}`);
console.log(' From the page cache (warm; CPU-bound):');
const warmRead = await best(3, false, async () => (await readFiles(smallSet, false)).ms);
const warmHash = await best(3, false, async () => (await readFiles(smallSet, true)).ms);
const warmZip = await best(3, false, zipOnce);
line('read the files', warmRead);
line('read + sha256 (the manifest needs it)', warmHash);
line('ZIP export over HTTP', warmZip);
console.log(`  ratio export / read:                       ${(warmRead / warmZip).toFixed(2)}`);
console.log(`  ratio export / read + sha256:              ${(warmHash / warmZip).toFixed(2)}`);
console.log(`  archive ${zipBytes} bytes; headers arrived after ${firstByte.toFixed(0)} ms`);

console.log('\nServer peak RSS while streaming (sampled every 25 ms):');
const idle = rssOf(server.pid!);
const one = await download('scope=visible', cookie);
const ten = await download('scope=all', cookie);
console.log(`  idle before:            ${(idle / MB).toFixed(1)} MB`);
console.log(`  1 GB archive  (${(one.bytes / GB).toFixed(2)} GB): peak ${(one.peakRss / MB).toFixed(1)} MB  (${fmt(one.bytes, one.ms)})`);
console.log(`  10 GB archive (${(ten.bytes / GB).toFixed(2)} GB): peak ${(ten.peakRss / MB).toFixed(1)} MB  (${fmt(ten.bytes, ten.ms)})`);
console.log(`  difference:             ${((ten.peakRss - one.peakRss) / MB).toFixed(1)} MB for ${((ten.bytes - one.bytes) / GB).toFixed(1)} GB more archive`);
process.exit(0);
