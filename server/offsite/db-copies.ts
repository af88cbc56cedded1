import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { snapshotDatabase } from '../backup/backup.repo.js';
import type { Bucket } from './bucket.js';
import { fileSums } from './bucket.js';

export const DB_FOLDER = 'database/';
const NAME = /^database\/wedding-(\d{8}T\d{6}(?:\d{3})?Z)\.db\.gz$/;

/** database/wedding-20260620T221500123Z.db.gz: sorts by time as text. */
export function dbCopyName(at: Date): string {
  return `${DB_FOLDER}wedding-${at.toISOString().replace(/[-:.]/g, '')}.db.gz`;
}

export function dbCopyTime(rel: string): Date | null {
  const m = NAME.exec(rel);
  if (!m) return null;
  const s = m[1];
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.length > 16 ? s.slice(15, 18) : '000'}Z`;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The copies to keep: the newest 24, and the newest of each day for 30 days. */
export function copiesToKeep(names: string[], now: Date): Set<string> {
  const dated = names
    .map((n) => ({ n, t: dbCopyTime(n) }))
    .filter((x): x is { n: string; t: Date } => x.t !== null)
    .sort((a, b) => b.t.getTime() - a.t.getTime());
  const keep = new Set(dated.slice(0, 24).map((x) => x.n));
  const days = new Set<string>();
  for (const x of dated) {
    if (now.getTime() - x.t.getTime() > 30 * 86_400_000) continue;
    const day = x.t.toISOString().slice(0, 10);
    if (days.has(day)) continue;
    days.add(day);
    keep.add(x.n);
  }
  return keep;
}

/**
 * A consistent copy of the database (SQLite online backup, gzip), copied to the bucket, then the
 * copies beyond what is kept deleted. Returns the copy's name.
 */
export async function copyDatabase(bucket: Bucket, liveFile: string, workDir: string, now = new Date()): Promise<string> {
  fs.mkdirSync(workDir, { recursive: true });
  const snap = path.join(workDir, `db-${process.pid}-${now.getTime()}.db`);
  const gz = `${snap}.gz`;
  try {
    await snapshotDatabase(liveFile, snap);
    await pipeline(fs.createReadStream(snap), zlib.createGzip({ level: 6 }), fs.createWriteStream(gz));
    const name = dbCopyName(now);
    await bucket.putFile(name, gz, { sums: await fileSums(gz), contentType: 'application/gzip' });
    await prune(bucket, now);
    return name;
  } finally {
    await fs.promises.rm(snap, { force: true });
    await fs.promises.rm(gz, { force: true });
  }
}

async function prune(bucket: Bucket, now: Date): Promise<void> {
  const names: string[] = [];
  for await (const o of bucket.list(DB_FOLDER)) names.push(o.rel);
  const keep = copiesToKeep(names, now);
  for (const n of names) if (dbCopyTime(n) && !keep.has(n)) await bucket.delete(n);
}

/** The newest database copy in the bucket, or null. */
export async function newestDatabaseCopy(bucket: Bucket): Promise<{ rel: string; at: Date } | null> {
  let best: { rel: string; at: Date } | null = null;
  for await (const o of bucket.list(DB_FOLDER)) {
    const at = dbCopyTime(o.rel);
    if (at && (!best || at > best.at)) best = { rel: o.rel, at };
  }
  return best;
}
