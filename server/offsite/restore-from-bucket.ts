import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { clearSessions, rebuildMissingDerivatives } from '../backup/backup.repo.js';
import { blockingEntries, RestoreError } from '../backup/restore.js';
import { recoverInterruptedRestore, STAGE_PREFIX, swapIn } from '../backup/swap.js';
import { openDatabase } from '../db/open.js';
import { Bucket, classify } from './bucket.js';
import { DB_FOLDER, newestDatabaseCopy } from './db-copies.js';
import { isConfigured, type OffsiteSettings } from './offsite.config.js';

/** What a restore replaces in DATA_DIR (with --force); everything else there is left alone. */
const REPLACED = ['wedding.db', 'wedding.db-wal', 'wedding.db-shm', 'wedding.db-journal', 'session-secret', 'media'];
/** Objects under the prefix that are not the site's files: database copies and "Test connection" leftovers. */
const NOT_FILES = [DB_FOLDER, 'offsite-test/'];
/** Downloads at once: enough to fill a home connection, few enough for a small machine. */
export const RESTORE_AT_ONCE = 8;
const TRIES = 3;

export interface BucketRestoreOptions {
  settings: OffsiteSettings;
  dataDir: string;
  force?: boolean;
  concurrency?: number;
  /** Told of progress now and then (a line for the operator). */
  progress?(line: string): void;
}

export interface BucketRestoreResult {
  dataDir: string;
  /** The database copy the site was rebuilt from. */
  database: { rel: string; at: Date };
  files: number;
  bytes: number;
  ms: number;
  counts: { photos: number; users: number; guestbook: number };
  /** Originals whose SHA-256 was checked against the database (photos.sha256, or the copy's recorded one after a rotation). */
  checked: number;
  /** Originals and voice notes the database names that the bucket does not hold (or would not give). */
  missing: string[];
  /** Originals whose bytes match neither SHA-256 the database knows (kept, never thrown away). */
  damaged: string[];
  /** Photos whose thumbnails or web copies were not in the bucket: made again at the first start. */
  remade: number;
}

/** A key below the prefix that names a file under DATA_DIR/media (nothing else is put back). */
function safeRel(rel: string): boolean {
  if (!rel.startsWith('media/') || rel.endsWith('/') || rel.includes('\\') || rel.includes('\0')) return false;
  return rel.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

interface Expected {
  /** SHA-256s an original's bytes may have: as uploaded, and as last copied (a rotation rewrites it). */
  originals: Map<string, Set<string>>;
  voices: Set<string>;
  /** The copy's own record of each object: restored files get its time so the copier copies nothing again. */
  rows: Map<string, { size: number; mtime_ms: number; sha256: string | null }>;
}

function readExpected(file: string): Expected {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const ok = db.prepare('PRAGMA quick_check').pluck().get();
    if (ok !== 'ok') throw new RestoreError(`The newest database copy in the bucket is damaged (${String(ok)})`);
    const tables = new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]));
    if (!tables.has('photos') || !tables.has('users')) throw new RestoreError('The database copy in the bucket has no photos or users table: is it this site’s bucket?');
    const rows = new Map<string, { size: number; mtime_ms: number; sha256: string | null }>();
    if (tables.has('offsite_objects')) {
      for (const r of db.prepare('SELECT rel, size, mtime_ms, sha256 FROM offsite_objects').all() as { rel: string; size: number; mtime_ms: number; sha256: string | null }[]) rows.set(r.rel, r);
    }
    const originals = new Map<string, Set<string>>();
    for (const p of db.prepare('SELECT stored_path, sha256 FROM photos').all() as { stored_path: string; sha256: string }[]) {
      const sums = new Set([p.sha256]);
      const copied = rows.get(p.stored_path)?.sha256;
      if (copied) sums.add(copied);
      originals.set(p.stored_path.replace(/\\/g, '/'), sums);
    }
    const voices = new Set<string>();
    if (tables.has('guestbook')) for (const v of db.prepare('SELECT audio_path FROM guestbook WHERE audio_path IS NOT NULL').pluck().all() as string[]) voices.add(v.replace(/\\/g, '/'));
    return { originals, voices, rows };
  } finally {
    db.close();
  }
}

function counts(file: string): BucketRestoreResult['counts'] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const n = (t: string) => {
      const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(t);
      return has ? (db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number) : 0;
    };
    return { photos: n('photos'), users: n('users'), guestbook: n('guestbook') };
  } finally {
    db.close();
  }
}

/** One object to `dest` (created with its folders), written and synced; its SHA-256 (when asked) and size. */
async function fetchTo(bucket: Bucket, rel: string, dest: string, hashIt: boolean): Promise<{ sha256: string | null; size: number }> {
  fs.mkdirSync(path.dirname(dest), { recursive: true });
  const hash = hashIt ? crypto.createHash('sha256') : null;
  let size = 0;
  const body: Readable = await bucket.getStream(rel);
  // A listener beside the pipe, not a stage in it: the bytes reach the file with no extra hop.
  body.on('data', (chunk: Buffer) => {
    hash?.update(chunk);
    size += chunk.length;
  });
  await pipeline(body, fs.createWriteStream(dest));
  const fd = await fs.promises.open(dest, 'r');
  await fd.sync().finally(() => fd.close());
  return { sha256: hash ? hash.digest('hex') : null, size };
}

/**
 * Rebuilds a data folder from the couple's bucket: the newest database copy (gunzipped to
 * wedding.db) and every object under the prefix but database copies and test objects, several
 * downloads at once, into a staging folder inside DATA_DIR that replaces the site's entries only
 * once it is complete (backup/swap.ts: a restore killed half-way leaves the folder as it was).
 * Every original's SHA-256 is checked against the database. What the bucket lacks is listed;
 * what it holds is put back all the same. Sessions go (everyone signs in again; the site makes a
 * new session secret at start). The copy's record of the bucket stays: a file restored gets the
 * time the copy recorded, so the new site sees it copied and sends nothing again; one the bucket
 * holds but would not give stays recorded as kept only there, so nothing deletes it.
 */
export async function restoreFromBucket(o: BucketRestoreOptions): Promise<BucketRestoreResult> {
  const started = Date.now();
  const say = o.progress ?? (() => {});
  if (!isConfigured(o.settings)) {
    throw new RestoreError('No bucket is set up: set S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (and S3_PREFIX, S3_REGION as the site had them)');
  }
  const dataDir = path.resolve(o.dataDir);
  const blocking = blockingEntries(dataDir);
  if (blocking.length > 0 && !o.force) {
    throw new RestoreError(
      `${dataDir} is not empty (it holds ${blocking.slice(0, 5).join(', ')}${blocking.length > 5 ? ', …' : ''}). ` +
        'Restore into an empty folder, or add --force to replace its database and media with what the bucket holds.',
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  recoverInterruptedRestore(dataDir);
  const bucket = new Bucket(o.settings, { maxAttempts: 3 });
  const stage = fs.mkdtempSync(path.join(dataDir, STAGE_PREFIX));
  try {
    const where = `${o.settings.bucket}/${o.settings.prefix}`;
    let newest: { rel: string; at: Date } | null;
    try {
      newest = await newestDatabaseCopy(bucket);
    } catch (err) {
      const e = classify(err);
      throw new RestoreError(`The bucket ${where} could not be read (${e.problem}): ${e.message}`);
    }
    if (!newest) throw new RestoreError(`The bucket ${where} holds no database copy (${o.settings.prefix}${DB_FOLDER}wedding-*.db.gz): is it the site's bucket and prefix?`);
    say(`Database copy of ${newest.at.toISOString()}: ${newest.rel}`);
    const dbFile = path.join(stage, 'wedding.db');
    await pipeline(await bucket.getStream(newest.rel), zlib.createGunzip(), fs.createWriteStream(dbFile));
    const expected = readExpected(dbFile);

    const objects: { rel: string; size: number }[] = [];
    for await (const obj of bucket.list()) {
      if (NOT_FILES.some((p) => obj.rel.startsWith(p))) continue;
      if (!safeRel(obj.rel)) {
        say(`Left out ${obj.rel}: not a file of the site's media`);
        continue;
      }
      objects.push({ rel: obj.rel, size: obj.size });
    }
    const total = objects.reduce((n, x) => n + x.size, 0);
    say(`${objects.length} files, ${(total / 1048576).toFixed(1)} MB to fetch`);

    const restored = new Map<string, { sha256: string | null; size: number }>();
    // Originals and voice notes are checked; the rest is what the bucket holds, as it holds it.
    const hashIt = (rel: string) => expected.originals.has(rel) || expected.voices.has(rel);
    const failed = new Map<string, string>();
    let bytes = 0;
    let next = 0;
    let lastSaid = Date.now();
    const worker = async () => {
      while (next < objects.length) {
        const { rel } = objects[next++];
        const dest = path.join(stage, ...rel.split('/'));
        for (let attempt = 1; ; attempt++) {
          try {
            const got = await fetchTo(bucket, rel, dest, hashIt(rel));
            restored.set(rel, got);
            bytes += got.size;
            break;
          } catch (err) {
            await fs.promises.rm(dest, { force: true });
            if (attempt >= TRIES) {
              const e = classify(err);
              failed.set(rel, `${e.problem}: ${e.message}`);
              break;
            }
            await new Promise((r) => setTimeout(r, 500 * attempt));
          }
        }
        if (Date.now() - lastSaid > 10_000) {
          lastSaid = Date.now();
          say(`${restored.size} of ${objects.length} files (${(bytes / 1048576).toFixed(1)} MB)`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, o.concurrency ?? RESTORE_AT_ONCE) }, worker));

    // Every original and voice note the database names, against what arrived.
    const missing: string[] = [];
    const damaged: string[] = [];
    let checked = 0;
    for (const [rel, sums] of expected.originals) {
      const got = restored.get(rel);
      if (!got) missing.push(rel);
      else if (!got.sha256 || !sums.has(got.sha256)) damaged.push(rel);
      else checked++;
    }
    for (const rel of expected.voices) if (!restored.has(rel)) missing.push(rel);
    for (const [rel, why] of failed) say(`Could not fetch ${rel} (${why})`);

    // The new machine's record of the bucket: restored files are what the copy holds; what the
    // bucket holds but would not give stays "kept only there"; nothing is deleted from it.
    const db = openDatabase(dbFile, { fileMustExist: true });
    try {
      const hasRows = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'offsite_objects'`).get();
      if (hasRows) {
        const local = db.prepare('UPDATE offsite_objects SET evicted = 0 WHERE rel = ?');
        const away = db.prepare(`UPDATE offsite_objects SET evicted = 1, state = 'copied' WHERE rel = ? AND sha256 IS NOT NULL`);
        db.transaction(() => {
          for (const rel of restored.keys()) local.run(rel);
          for (const rel of failed.keys()) away.run(rel);
        })();
      }
    } finally {
      db.close();
    }
    for (const [rel, got] of restored) {
      const row = expected.rows.get(rel);
      if (row && row.size === got.size && (got.sha256 === null || row.sha256 === null || row.sha256 === got.sha256)) {
        await fs.promises.utimes(path.join(stage, ...rel.split('/')), new Date(), new Date(row.mtime_ms));
      }
    }
    clearSessions(dbFile);
    const remade = rebuildMissingDerivatives(dbFile, (name) => restored.has(name));
    const result: BucketRestoreResult = {
      dataDir,
      database: newest,
      files: restored.size,
      bytes,
      ms: 0,
      counts: counts(dbFile),
      checked,
      missing: missing.sort(),
      damaged: damaged.sort(),
      remade,
    };
    fs.mkdirSync(path.join(stage, 'media', 'originals'), { recursive: true });
    const incoming = fs.readdirSync(stage);
    swapIn(dataDir, stage, incoming, REPLACED);
    result.ms = Date.now() - started;
    return result;
  } finally {
    bucket.destroy();
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
