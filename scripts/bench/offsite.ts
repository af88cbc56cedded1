// The off-site copy's speed and memory: 1 GB of originals (photos of 3-10 MB, videos of
// 50-200 MB) copied by the site to an S3-compatible bucket on loopback (s3rver in a process of its
// own), against the baseline measured in the same run: a plain upload of the same files with the
// same client (@aws-sdk/lib-storage, the SDK's own multipart uploader) and the same concurrency.
// The site's server RSS is sampled while it copies, against its idle RSS on the same data.
// Media, data folder and buckets live in memory (/dev/shm) so the disk is not what is measured.
// Needs the built server: node scripts/build.mjs && npm run bench:offsite -- [--gb=1] [--videos=4]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Upload } from '@aws-sdk/lib-storage';
import { openDatabase } from '../../server/db/open.js';
import { BenchServer, makeJpegLikeFile } from './bench-server.js';
import { benchS3Client, S3Child } from './s3-child.js';

const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const GB = Number(args.get('gb') ?? 1);
const VIDEOS = Number(args.get('videos') ?? 4);
const CONCURRENCY = 2; // the copier's
const PART = 8 * 1024 * 1024; // the copier's smallest part
const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const parent = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const work = fs.mkdtempSync(path.join(parent, 'wedding-offsite-bench-'));
const rnd = (lo: number, hi: number) => lo + Math.random() * (hi - lo);

interface File {
  id: string;
  name: string;
  path: string;
  size: number;
  sha256: string;
  video: boolean;
}

async function makeMedia(): Promise<File[]> {
  const dir = path.join(work, 'media');
  fs.mkdirSync(dir);
  const files: File[] = [];
  let total = 0;
  const target = GB * 1e9;
  const add = async (video: boolean, bytes: number) => {
    const id = crypto.randomBytes(16).toString('base64url');
    const name = `${id}.${video ? 'mp4' : 'jpg'}`;
    const file = path.join(dir, name);
    await makeJpegLikeFile(file, bytes);
    const sha256 = crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
    files.push({ id, name, path: file, size: bytes, sha256, video });
    total += bytes;
  };
  for (let i = 0; i < VIDEOS; i++) await add(true, Math.round(rnd(50, 200) * MiB));
  while (total < target) await add(false, Math.round(rnd(3, 10) * MiB));
  return files;
}

function sampleRss(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  } catch {
    return 0;
  }
}

async function baseline(files: File[]): Promise<number> {
  const s3 = await new S3Child(path.join(work, 'bucket-baseline'), 'baseline').start();
  const client = benchS3Client(s3.endpoint);
  try {
    const t = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < files.length) {
          const f = files[next++];
          await new Upload({ client, params: { Bucket: 'baseline', Key: `media/originals/${f.name}`, Body: fs.createReadStream(f.path) }, partSize: PART, queueSize: 1 }).done();
        }
      }),
    );
    return (performance.now() - t) / 1000;
  } finally {
    client.destroy();
    await s3.stop();
  }
}

async function main(): Promise<void> {
  let t = performance.now();
  const files = await makeMedia();
  const bytes = files.reduce((n, f) => n + f.size, 0);
  console.log(`offsite: ${files.length} originals (${files.filter((f) => f.video).length} videos of 50-200 MB, photos of 3-10 MB), ${(bytes / 1e9).toFixed(2)} GB, made in ${((performance.now() - t) / 1000).toFixed(0)} s in ${parent}`);

  // The site's data folder: migrated by a first start, then the originals and their rows put in.
  const dataDir = path.join(work, 'data');
  const env = { DATA_DIR: dataDir, UV_THREADPOOL_SIZE: '16' };
  let server = await new BenchServer(env).start();
  await server.stop();
  fs.mkdirSync(path.join(dataDir, 'media/originals'), { recursive: true });
  const db = openDatabase(path.join(dataDir, 'wedding.db'));
  const insert = db.prepare(
    `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, status, is_visible, upload_timestamp) VALUES (?, ?, ?, ?, ?, ?, 'complete', 1, ?)`,
  );
  db.transaction(() => {
    for (const f of files) {
      fs.linkSync(f.path, path.join(dataDir, 'media/originals', f.name));
      insert.run(f.id, f.name, `media/originals/${f.name}`, f.video ? 'video/mp4' : 'image/jpeg', f.size, f.sha256, new Date().toISOString());
    }
  })();
  db.close();

  // Idle: the same site and data without a bucket.
  server = await new BenchServer(env).start();
  await sleep(3000);
  let rssIdle = 0;
  for (let i = 0; i < 20; i++, await sleep(100)) rssIdle = Math.max(rssIdle, sampleRss(server.child.pid!));
  await server.stop();

  const base = await baseline(files);
  console.log(`baseline: the same files with lib-storage's Upload, ${CONCURRENCY} at a time, ${PART / MiB} MiB parts: ${base.toFixed(1)} s (${(bytes / MiB / base).toFixed(0)} MiB/s)`);

  const s3 = await new S3Child(path.join(work, 'bucket-site'), 'site').start();
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, sampleRss(server.child.pid!))), 100);
  try {
    t = performance.now();
    server = await new BenchServer({ ...env, ...s3.env() }).start();
    const reader = openDatabase(path.join(dataDir, 'wedding.db'), { readonly: true });
    const copied = () => (reader.prepare(`SELECT COUNT(*) n FROM offsite_objects WHERE state = 'copied' AND owner LIKE 'photo:%'`).get() as { n: number }).n;
    while (copied() < files.length) await sleep(50);
    const took = (performance.now() - t) / 1000;
    reader.close();
    clearInterval(sampler);
    console.log(`the site's copy (from its start, hashing each file and confirming each request's MD5): ${took.toFixed(1)} s (${(bytes / MiB / took).toFixed(0)} MiB/s)`);
    console.log(`ratio (baseline time / the site's time): ${(base / took).toFixed(2)} (goal >= 0.8)`);
    console.log(`server RSS: idle ${(rssIdle / MiB).toFixed(0)} MiB, peak while copying ${(rssPeak / MiB).toFixed(0)} MiB: +${((rssPeak - rssIdle) / MiB).toFixed(0)} MiB (goal <= 50)`);

    // Byte for byte: every object read back and hashed.
    const client = benchS3Client(s3.endpoint);
    const { GetObjectCommand } = await import('@aws-sdk/client-s3');
    let bad = 0;
    for (const f of files) {
      const body = (await client.send(new GetObjectCommand({ Bucket: 'site', Key: `media/originals/${f.name}` }))).Body as AsyncIterable<Buffer>;
      const h = crypto.createHash('sha256');
      for await (const c of body) h.update(c);
      if (h.digest('hex') !== f.sha256) bad++;
    }
    client.destroy();
    console.log(`integrity: ${bad ? `${bad} of ${files.length} objects differ` : `all ${files.length} objects match the originals (SHA-256)`}`);
  } finally {
    clearInterval(sampler);
    await server.stop().catch(() => {});
    await s3.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
