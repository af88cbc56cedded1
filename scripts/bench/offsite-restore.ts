// The speed of `restore --from-bucket` against its baseline in the same run: a plain download of
// the same objects with the same client and as many at once (8), each to a file, nothing checked.
// The bucket (s3rver in a process of its own) holds a site: a database copy naming the photos and
// their originals (3-8 MB) with two small derivatives each. Bucket and data folders live in memory
// (/dev/shm) so the disk is not what is measured. Goal: the restore at no less than 0.8 of the
// baseline's speed.
// Usage: node --import tsx --import ./scripts/i18n/register.mjs scripts/bench/offsite-restore.ts [--photos=150] [--rounds=3]
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { migrateToLatest } from '../../server/db/migrate.js';
import { openSqlite } from '../../server/db/open.js';
import { effectiveSettings } from '../../server/offsite/offsite.config.js';
import { dbCopyName } from '../../server/offsite/db-copies.js';
import { RESTORE_AT_ONCE, restoreFromBucket } from '../../server/offsite/restore-from-bucket.js';
import { benchS3Client, S3Child } from './s3-child.js';

const args = new Map(process.argv.slice(2).map((a) => [a.replace(/^--/, '').split('=')[0], a.split('=')[1] ?? 'true']));
const PHOTOS = Number(args.get('photos') ?? 150);
const ROUNDS = Number(args.get('rounds') ?? 3);
const MiB = 1024 * 1024;
const parent = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
const work = fs.mkdtempSync(path.join(parent, 'wedding-restore-bench-'));
const s3 = await new S3Child(path.join(work, 'bucket'), 'site').start();
const client = benchS3Client(s3.endpoint);

try {
  // The site: its database (migrated, one admin, the photos) and its files, put in the bucket.
  const dbFile = path.join(work, 'wedding.db');
  const sqlite = openSqlite(dbFile);
  await migrateToLatest(sqlite);
  sqlite.prepare(`INSERT INTO users (username, email, full_name, password_hash, role, created_at) VALUES ('admin', 'a@example.com', 'Admin', 'x', 'admin', datetime('now'))`).run();
  const keys: string[] = [];
  let bytes = 0;
  const put = async (rel: string, body: Buffer) => {
    await client.send(new PutObjectCommand({ Bucket: 'site', Key: rel, Body: body }));
    keys.push(rel);
    bytes += body.length;
  };
  for (let i = 0; i < PHOTOS; i++) {
    const id = crypto.randomBytes(16).toString('base64url');
    const original = crypto.randomBytes(Math.round((3 + Math.random() * 5) * MiB));
    const rel = `media/originals/${id}.jpg`;
    sqlite
      .prepare(
        `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, thumb_path, display_path, upload_timestamp, status)
         VALUES (?, ?, ?, 'image/jpeg', ?, ?, ?, ?, datetime('now'), 'complete')`,
      )
      .run(id, `IMG_${i}.jpg`, rel, original.length, crypto.createHash('sha256').update(original).digest('hex'), `media/derived/${id}/thumb-v1.webp`, `media/derived/${id}/display-v1.webp`);
    await put(rel, original);
    await put(`media/derived/${id}/thumb-v1.webp`, crypto.randomBytes(40 * 1024));
    await put(`media/derived/${id}/display-v1.webp`, crypto.randomBytes(400 * 1024));
  }
  sqlite.close();
  const gz = zlib.gzipSync(fs.readFileSync(dbFile));
  await client.send(new PutObjectCommand({ Bucket: 'site', Key: dbCopyName(new Date()), Body: gz }));
  console.log(`Bucket: ${keys.length} files, ${(bytes / MiB).toFixed(0)} MiB, ${PHOTOS} photos`);

  // Baseline: the same objects, 8 at once, each streamed to a file.
  const baseline = async (): Promise<number> => {
    const plain = path.join(work, 'plain');
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: RESTORE_AT_ONCE }, async () => {
        while (next < keys.length) {
          const key = keys[next++];
          const dest = path.join(plain, key);
          fs.mkdirSync(path.dirname(dest), { recursive: true });
          const out = await client.send(new GetObjectCommand({ Bucket: 'site', Key: key }));
          await pipeline(out.Body as NodeJS.ReadableStream, fs.createWriteStream(dest));
        }
      }),
    );
    const ms = Date.now() - t0;
    fs.rmSync(plain, { recursive: true, force: true });
    return ms;
  };
  // Turn about, ROUNDS times; the best of each counts (a busy machine slows one run, not the method).
  let baseMs = Infinity;
  let restoreMs = Infinity;
  let r: Awaited<ReturnType<typeof restoreFromBucket>> | undefined;
  for (let round = 0; round < ROUNDS; round++) {
    baseMs = Math.min(baseMs, await baseline());
    const target = path.join(work, `restored-${round}`);
    const t = Date.now();
    r = await restoreFromBucket({
      settings: effectiveSettings({ endpoint: s3.endpoint, bucket: 'site', access_key_id: 'S3RVER', secret_access_key: 'bench' }, {}),
      dataDir: target,
    });
    restoreMs = Math.min(restoreMs, Date.now() - t);
    fs.rmSync(target, { recursive: true, force: true });
    if (r.missing.length || r.damaged.length || r.checked !== PHOTOS) throw new Error(`restore incomplete: ${JSON.stringify({ missing: r.missing.length, damaged: r.damaged.length, checked: r.checked })}`);
  }
  const mbs = (ms: number) => ((bytes / MiB) / (ms / 1000)).toFixed(1);
  console.log(`Plain download: ${(baseMs / 1000).toFixed(2)} s (${mbs(baseMs)} MiB/s)`);
  console.log(`Restore:        ${(restoreMs / 1000).toFixed(2)} s (${mbs(restoreMs)} MiB/s), ${r!.checked} originals checked`);
  console.log(`Ratio: ${(baseMs / restoreMs).toFixed(2)} of the plain download's speed (goal: at least 0.80)`);
} finally {
  client.destroy();
  await s3.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
