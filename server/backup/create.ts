import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { TarArchive } from 'archiver';
import { dataPaths, type DataPaths } from '../context.js';
import { guestbookAudio, keepsakeFiles, prepareSnapshot, sealSnapshot, snapshotDatabase } from './backup.repo.js';

export const MANIFEST_NAME = 'backup-manifest.json';
export const SUMS_NAME = 'SHA256SUMS';
export const DB_NAME = 'wedding.db';

export interface BackupManifest {
  app: 'wedding-photos';
  format: 1;
  created_at: string;
  counts: Record<string, number>;
  files: { originals: number; derived: number; guestbook: number; keepsakes?: number; bytes: number };
  /** Photos deleted on the site while the backup started: left out of the archive's database too. */
  dropped_photos: string[];
}

export interface BackupResult {
  archive: string;
  manifest: BackupManifest;
}

interface FileToArchive {
  name: string;
  /** Where to read it: a hard link made right after the snapshot, or the live file. */
  source: string;
}

/** Default archive name: DATA_DIR/backups/wedding-2026-06-20-2215.tar.gz */
export function defaultArchivePath(dataDir: string, now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}-${p(now.getHours())}${p(now.getMinutes())}${p(now.getSeconds())}`;
  return path.join(dataDir, 'backups', `wedding-${stamp}.tar.gz`);
}

function walkFiles(dir: string, rel: string, out: string[]): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  for (const e of entries) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walkFiles(path.join(dir, e.name), r, out);
    else if (e.isFile()) out.push(r);
  }
}

/** A relative path that stays inside DATA_DIR's `under` folder, or undefined. */
function storedName(stored: string, under: string): string | undefined {
  const norm = path.posix.normalize(stored.replace(/\\/g, '/'));
  return norm.startsWith(under) && !norm.includes('..') ? norm : undefined;
}

const originalName = (stored: string) => storedName(stored, 'media/originals/');

/**
 * Pins what the archive will hold: files are hard-linked into `stage` right away, so a photo
 * deleted or a thumbnail rebuilt while a long archive is written cannot change or break it.
 * Where links are impossible (another filesystem) the live file is read instead.
 */
function pin(root: string, stage: string, names: string[]): { files: FileToArchive[]; missing: string[] } {
  const files: FileToArchive[] = [];
  const missing: string[] = [];
  let canLink = true;
  for (const name of names) {
    const live = path.join(root, name);
    if (canLink) {
      const pinned = path.join(stage, name);
      try {
        fs.mkdirSync(path.dirname(pinned), { recursive: true });
        fs.linkSync(live, pinned);
        files.push({ name, source: pinned });
        continue;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          missing.push(name);
          continue;
        }
        canLink = false; // EXDEV, EPERM, …: fall back to the live files
      }
    }
    if (fs.existsSync(live)) files.push({ name, source: live });
    else missing.push(name);
  }
  return { files, missing };
}

/**
 * Brings an original the local disk gave up (the couple's bucket holds it) to `dest`, its SHA-256
 * checked; false when it is not kept there either. Throws when the bucket does not answer.
 */
export type FetchOriginal = (rel: string, dest: string) => Promise<boolean>;

/** Snapshots taken, at most, before derivatives still missing are left for the restored site to rebuild. */
const SNAPSHOT_ROUNDS = 3;

/**
 * Takes the database snapshot and pins the files it names: every original, and every thumbnail,
 * display image and web copy. A derivative can be replaced (a regenerate, a rotation, a web copy
 * finished) between the snapshot and the pinning, and the snapshot would then name a file the
 * archive does not hold: then a new snapshot is taken (files pinned so far stay pinned) until
 * every named derivative is held. Should one still be missing after SNAPSHOT_ROUNDS, its photo
 * is listed in `rebuild`: the archive's database gets a job that makes it again after a restore.
 * `afterSnapshot` runs right after each snapshot (tests change files there).
 */
async function snapshotWithFiles(paths: DataPaths, stage: string, dbCopy: string, afterSnapshot?: () => Promise<void>, fetchOriginal?: FetchOriginal) {
  const held = new Map<string, FileToArchive>();
  const pinMissing = (names: string[]) => {
    const { files, missing } = pin(paths.root, stage, names.filter((n) => !held.has(n)));
    for (const f of files) held.set(f.name, f);
    return missing;
  };
  for (let round = 1; ; round++) {
    for (const f of [dbCopy, `${dbCopy}-wal`, `${dbCopy}-shm`]) fs.rmSync(f, { force: true });
    await snapshotDatabase(paths.database, dbCopy);
    await afterSnapshot?.();
    const { photos, derivatives } = prepareSnapshot(dbCopy);
    const originals = photos.map((o) => ({ id: o.id, name: originalName(o.path) }));
    const missingOriginals = new Set(pinMissing(originals.flatMap((o) => (o.name ? [o.name] : []))));
    // Originals kept only in the bucket come into the archive from there (into the staging folder, not the disk's originals).
    for (const name of fetchOriginal ? [...missingOriginals] : []) {
      const dest = path.join(stage, name);
      if (await fetchOriginal!(name, dest)) {
        held.set(name, { name, source: dest });
        missingOriginals.delete(name);
      }
    }
    if (round === 1) {
      // Every derivative there is (as before): what the snapshot names is checked next.
      const present: string[] = [];
      walkFiles(paths.derived, 'media/derived', present);
      pinMissing(present);
    }
    const named = derivatives.map((d) => ({ ...d, name: storedName(d.path, 'media/derived/') }));
    pinMissing(named.flatMap((d) => (d.name ? [d.name] : [])));
    const lost = named.filter((d) => !d.name || !held.has(d.name));
    if (lost.length && round < SNAPSHOT_ROUNDS) continue;
    const dropped = originals.filter((o) => !o.name || missingOriginals.has(o.name)).map((o) => o.id);
    // Originals of the last snapshot only: one pinned for a photo deleted since must not come back.
    const isOriginal = new Set(originals.flatMap((o) => (o.name ? [o.name] : [])));
    const all = [...held.values()];
    // Guestbook voice notes, as sent and their playable copies: a message whose file is gone goes too.
    const voiceNames: string[] = [];
    walkFiles(paths.guestbook, 'media/guestbook', voiceNames);
    const voices = pin(paths.root, stage, voiceNames).files;
    const voiced = new Set(voices.map((f) => f.name));
    // The films, books and music tracks the snapshot's rows name (a keepsake still being made has no file yet).
    const kept = keepsakeFiles(dbCopy).map((k) => ({ ...k, name: storedName(k.path, 'media/keepsakes/') }));
    const keepsakes = pin(paths.root, stage, kept.flatMap((k) => (k.name ? [k.name] : []))).files;
    const keptNames = new Set(keepsakes.map((f) => f.name));
    return {
      keepsakes,
      droppedKeepsakes: kept.filter((k) => !k.name || !keptNames.has(k.name)).map((k) => ({ table: k.table, id: k.id })),
      originals: all.filter((f) => isOriginal.has(f.name)),
      derived: all.filter((f) => f.name.startsWith('media/derived/')),
      voices,
      dropped,
      droppedMessages: guestbookAudio(dbCopy).filter((m) => !voiced.has(path.posix.normalize(m.path))).map((m) => m.id),
      rebuild: lost.map((d) => ({ id: d.id, column: d.column })),
    };
  }
}

const STAGE_PREFIX = '.backup-';
const STALE_MS = 24 * 60 * 60 * 1000;

/** Staging folders left by a backup that was killed (a day old: no backup runs that long). */
function removeStaleStages(root: string): void {
  for (const name of fs.readdirSync(root)) {
    if (!name.startsWith(STAGE_PREFIX)) continue;
    const dir = path.join(root, name);
    try {
      if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      /* gone meanwhile */
    }
  }
}

const owner = { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };

/** Appends one file and resolves with its SHA-256 once archiver has taken it all. */
function appendFile(archive: TarArchive, file: FileToArchive, signal?: AbortSignal): Promise<{ sha256: string; size: number }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('Stopped before the backup was complete'));
    const stats = fs.statSync(file.source);
    const hash = crypto.createHash('sha256');
    const source = fs.createReadStream(file.source);
    const hashing = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    const onAbort = () => source.destroy(new Error('stopped'));
    const done = (err?: Error) => {
      archive.off('entry', onEntry);
      archive.off('error', done);
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve({ sha256: hash.digest('hex'), size: stats.size });
    };
    const onEntry = (e: { name: string }) => {
      if (e.name === file.name) done();
    };
    source.on('error', (err) =>
      done(signal?.aborted ? new Error('Stopped before the backup was complete') : new Error(`Could not read ${file.name}: ${err.message}`)),
    );
    signal?.addEventListener('abort', onAbort);
    archive.on('entry', onEntry);
    archive.on('error', done);
    archive.append(source.pipe(hashing), { name: file.name, stats, mode: 0o644, ...owner } as Parameters<TarArchive['append']>[1]);
  });
}

function appendBuffer(archive: TarArchive, name: string, body: Buffer): void {
  archive.append(body, { name, mode: 0o644, date: new Date(), ...owner } as Parameters<TarArchive['append']>[1]);
}

/**
 * Writes one tar.gz (mode 0600) holding a consistent database snapshot without sessions, every
 * original the snapshot lists, the derivatives, a manifest and SHA256SUMS. The archive appears
 * under its final name only when complete.
 */
export async function createBackup(opts: {
  dataDir: string;
  archive?: string;
  now?: Date;
  signal?: AbortSignal;
  afterSnapshot?: () => Promise<void>;
  /** Originals the local disk gave up (S3_KEEP_LOCAL=derivatives) are fetched from the bucket through this. */
  fetchOriginal?: FetchOriginal;
}): Promise<BackupResult> {
  const paths = dataPaths(path.resolve(opts.dataDir));
  if (!fs.existsSync(paths.database)) throw new Error(`No database at ${paths.database}: is DATA_DIR right?`);
  const archivePath = path.resolve(opts.archive ?? defaultArchivePath(paths.root, opts.now));
  fs.mkdirSync(path.dirname(archivePath), { recursive: true, mode: 0o700 });
  const partial = `${archivePath}.partial`;
  removeStaleStages(paths.root);
  // Inside DATA_DIR so hard links to media work; removed whatever happens.
  const stage = fs.mkdtempSync(path.join(paths.root, STAGE_PREFIX));
  try {
    const dbCopy = path.join(stage, DB_NAME);
    const { originals, derived, voices, keepsakes, dropped, droppedMessages, droppedKeepsakes, rebuild } = await snapshotWithFiles(paths, stage, dbCopy, opts.afterSnapshot, opts.fetchOriginal);
    const counts = sealSnapshot(dbCopy, dropped, rebuild, droppedMessages, droppedKeepsakes);

    const archive = new TarArchive({ gzip: true, gzipOptions: { level: 1 } }); // photos and videos do not compress: favour speed
    // Readable by its owner only: it holds every guest's originals and the accounts' password hashes.
    const written = pipeline(archive, fs.createWriteStream(partial, { mode: 0o600 }));
    written.catch(() => {}); // observed below; avoids an unhandled rejection while appending
    const sums: string[] = [];
    let bytes = 0;
    const add = async (f: FileToArchive) => {
      const { sha256, size } = await appendFile(archive, f, opts.signal);
      sums.push(`${sha256}  ${f.name}`);
      bytes += size;
    };
    try {
      // No session secret (nor session rows, see prepareSnapshot): an archive cannot sign anyone in.
      await add({ name: DB_NAME, source: dbCopy });
      for (const f of originals) await add(f);
      for (const f of derived) await add(f);
      for (const f of voices) await add(f);
      for (const f of keepsakes) await add(f);
      const manifest: BackupManifest = {
        app: 'wedding-photos',
        format: 1,
        created_at: (opts.now ?? new Date()).toISOString(),
        counts,
        files: { originals: originals.length, derived: derived.length, guestbook: voices.length, keepsakes: keepsakes.length, bytes },
        dropped_photos: dropped,
      };
      appendBuffer(archive, MANIFEST_NAME, Buffer.from(JSON.stringify(manifest, null, 2) + '\n'));
      appendBuffer(archive, SUMS_NAME, Buffer.from(sums.join('\n') + '\n'));
      await archive.finalize();
      await written;
      fs.renameSync(partial, archivePath);
      return { archive: archivePath, manifest };
    } catch (err) {
      // abort() alone waits for the entry in progress, whose source may never end: tear it down.
      archive.abort();
      archive.destroy(err as Error);
      await written.catch(() => {});
      throw err;
    }
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
    fs.rmSync(partial, { force: true });
  }
}
