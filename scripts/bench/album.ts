// bench:album: what the album features cost, each against a baseline measured in the same run.
//  1. Processing: the display image and thumbnail of phone JPEGs with the similar-shot and quality
//     measures against without them (goal: at most 10% more time).
//  2. Grouping 5,000 photos into similar shots (goal: under 1 s).
//  3. The guests' gallery ZIP (GPS removed) against the admin export of the same photos, and the
//     server's memory while it streams (goal: at least 0.8 of the admin rate, flat memory).
// Run: npm run bench:album (builds the server first: node scripts/build.mjs)
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../server/db/open.js';
import { configureSharp, writeImageDerivatives } from '../../server/processing/sharp.js';
import { groupShots, type Shot } from '../../server/similar/grouping.js';
import { sample } from '../../test/helpers/samples.js';
import { BenchServer } from './bench-server.js';
import { pool } from './media-bench.js';

const MB = 1024 * 1024;
const CONCURRENCY = Number(process.env.PROCESSING_CONCURRENCY ?? os.availableParallelism());
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-album-bench-'));

async function processing(rounds = 4, perRound = 12): Promise<void> {
  configureSharp(CONCURRENCY);
  const phones = ['hdr_iphone_hdr_YES.jpg', 'mobile_jolla.jpg'].map(sample);
  const files = Array.from({ length: perRound }, (_, i) => phones[i % 2]);
  const time = async (measure: boolean) => {
    const t = performance.now();
    let n = 0;
    await pool(files, CONCURRENCY, async (f) => {
      const out = path.join(work, `p${measure ? 'm' : 'n'}${n++}`);
      await writeImageDerivatives(f, `${out}-d.webp`, `${out}-t.webp`, false, measure);
    });
    return performance.now() - t;
  };
  await time(true); // warm-up
  let without = 0;
  let withMeasures = 0;
  // Alternating rounds, so a change in the machine's load falls on both sides.
  for (let r = 0; r < rounds; r++) {
    without += await time(false);
    withMeasures += await time(true);
  }
  const n = rounds * perRound;
  console.log(`1. Processing ${n} phone JPEGs (3264x2448) each way, concurrency ${CONCURRENCY}, alternating rounds:`);
  console.log(`   without measures: ${(without / n).toFixed(0)} ms per photo`);
  console.log(`   with measures:    ${(withMeasures / n).toFixed(0)} ms per photo`);
  console.log(`   ratio: ${(withMeasures / without).toFixed(3)} (goal <= 1.10)`);
}

function grouping(): void {
  // 5,000 photos over ten hours: 800 bursts of three to five, the rest alone.
  const rand = (n: number) => Math.floor(Math.random() * n);
  const hash = () => crypto.randomBytes(8).toString('hex');
  const flip = (h: string, bits: number) => {
    let v = BigInt('0x' + h);
    for (let i = 0; i < bits; i++) v ^= 1n << BigInt(rand(64));
    return v.toString(16).padStart(16, '0');
  };
  const shots: Shot[] = [];
  const start = Date.UTC(2026, 5, 20, 14);
  while (shots.length < 5000) {
    const at = start + rand(10 * 3600_000);
    const h = hash();
    const burst = shots.length < 3200 ? 3 + rand(3) : 1;
    for (let i = 0; i < burst && shots.length < 5000; i++) shots.push({ id: `p${shots.length}`, at: at + i * 2000, hash: i ? flip(h, rand(5)) : h });
  }
  let best = Infinity;
  let groups = 0;
  for (let r = 0; r < 5; r++) {
    const t = performance.now();
    const g = groupShots(shots);
    best = Math.min(best, performance.now() - t);
    groups = new Set(g.values()).size;
  }
  console.log(`2. Grouping 5,000 photos (ten hours, bursts of 3-5): ${best.toFixed(1)} ms (best of 5), ${groups} groups (goal < 1000 ms)`);
}

/** Originals with a real phone's EXIF (GPS included) before `size` bytes of picture data, as rows of the server's database. */
function placePhotos(dataDir: string, count: number, size: number, sparse = false): void {
  const jpeg = fs.readFileSync(sample('gps_DSCN0010.jpg'));
  let sos = 2;
  while (!(jpeg[sos] === 0xff && jpeg[sos + 1] === 0xda)) sos += 2 + jpeg.readUInt16BE(sos + 2);
  const head = jpeg.subarray(0, sos);
  const block = crypto.randomBytes(4 * MB);
  const db = openDatabase(path.join(dataDir, 'wedding.db'));
  db.exec('PRAGMA busy_timeout = 5000');
  const insert = db.prepare(
    `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp, status, is_visible) VALUES (?, ?, ?, 'image/jpeg', ?, ?, ?, 'complete', 1)`,
  );
  let t = Date.UTC(2026, 5, 20, 14);
  for (let i = 0; i < count; i++) {
    const id = crypto.randomBytes(9).toString('base64url');
    const rel = path.join('media', 'originals', `${id}.jpg`);
    const fd = fs.openSync(path.join(dataDir, rel), 'w');
    fs.writeSync(fd, head, 0, head.length, 0);
    if (sparse) fs.ftruncateSync(fd, size);
    else for (let off = head.length; off < size; off += block.length) fs.writeSync(fd, block, 0, Math.min(block.length, size - off), off);
    fs.closeSync(fd);
    insert.run(id, `IMG_${i}.jpg`, rel, size, crypto.randomBytes(32).toString('hex'), new Date((t += 1000)).toISOString());
  }
  db.close();
}

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

function download(url: string, cookie: string, pid: number): Promise<{ bytes: number; ms: number; peak: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now();
    let peak = rssOf(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 25);
    http
      .get(url, { headers: { cookie } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('end', () => {
          clearInterval(sampler);
          resolve({ bytes, ms: performance.now() - t, peak: Math.max(peak, rssOf(pid)) });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function guestZip(): Promise<void> {
  const server = await new BenchServer().start();
  try {
    const login = await fetch(`${server.url}/admin/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: 'bench-password-123' }) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    placePhotos(server.dataDir, 200, 4 * MB);
    const pid = server.child.pid!;
    let admin = Infinity;
    let guest = Infinity;
    let bytes = 0;
    let peakGuest = 0;
    const idle = rssOf(pid);
    for (let r = 0; r < 3; r++) {
      const a = await download(`${server.url}/admin/api/export.zip?scope=visible`, cookie, pid);
      const g = await download(`${server.url}/api/export.zip`, '', pid);
      admin = Math.min(admin, a.ms);
      guest = Math.min(guest, g.ms);
      bytes = g.bytes;
      peakGuest = Math.max(peakGuest, g.peak);
    }
    const rate = (ms: number) => `${(bytes / MB / (ms / 1000)).toFixed(0)} MB/s`;
    console.log(`3. Gallery ZIP of 200 visible photos (${(bytes / MB).toFixed(0)} MB, real EXIF with GPS), best of 3, alternating, files in the page cache:`);
    console.log(`   admin export (originals + manifest): ${rate(admin)}`);
    console.log(`   guest ZIP (GPS removed):             ${rate(guest)}`);
    console.log(`   ratio guest/admin: ${(admin / guest).toFixed(2)} (goal >= 0.8)`);
    placePhotos(server.dataDir, 8, 1024 * MB, true);
    const big = await download(`${server.url}/api/export.zip`, '', pid);
    console.log(`   server RSS: idle ${(idle / MB).toFixed(0)} MiB, peak ${(peakGuest / MB).toFixed(0)} MiB streaming ${(bytes / MB).toFixed(0)} MB, peak ${(big.peak / MB).toFixed(0)} MiB streaming ${(big.bytes / MB / 1024).toFixed(1)} GB`);
  } finally {
    await server.stop();
  }
}

try {
  console.log(`load before: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  await processing();
  grouping();
  await guestZip();
  console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
