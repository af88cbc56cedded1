import crypto from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DB_NAME, MANIFEST_NAME, SUMS_NAME, type BackupManifest } from './create.js';
import { clearSessions, guestbookAudio, listOriginals, rebuildMissingDerivatives } from './backup.repo.js';
import { recoverInterruptedRestore, STAGE_PREFIX, swapIn } from './swap.js';
import { readTar, TarError } from './tar-reader.js';

/** What a restore replaces in DATA_DIR (with --force); everything else there is left alone. */
const REPLACED = [DB_NAME, `${DB_NAME}-wal`, `${DB_NAME}-shm`, `${DB_NAME}-journal`, 'session-secret', 'media'];
/** Present in a folder that still counts as empty: where backups are kept, and ext4's own folder. */
const IGNORED_WHEN_EMPTY = new Set(['backups', 'lost+found']);

export class RestoreError extends Error {}

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest | undefined;
  files: number;
  photos: number;
  /** Photos whose thumbnails or web copy the archive lacked: made again at the first start. */
  rebuilt: number;
}

/** Names in dataDir that make it "not empty" for a restore. */
export function blockingEntries(dataDir: string, archive?: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dataDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const archiveHere = archive && path.dirname(path.resolve(archive)) === path.resolve(dataDir) ? path.basename(archive) : undefined;
  return names.filter((n) => !IGNORED_WHEN_EMPTY.has(n) && n !== archiveHere && !n.startsWith('.restore-'));
}

async function writeEntry(file: string, body: AsyncIterable<Buffer>, mode: number): Promise<string> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const hash = crypto.createHash('sha256');
  const out = fs.createWriteStream(file, { mode: (mode & 0o777) || 0o644 });
  const finished = new Promise<void>((resolve, reject) => {
    out.on('error', reject);
    out.on('finish', resolve);
  });
  try {
    for await (const chunk of body) {
      hash.update(chunk);
      // events.once rejects on 'error' and removes its listeners, so none pile up over a long file.
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
  }
  await finished;
  return hash.digest('hex');
}

/** Unpacks into `stage`; returns each file's SHA-256 as written. */
async function unpack(archive: string, stage: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const input = fs.createReadStream(archive).pipe(zlib.createGunzip());
  try {
    await readTar(input, async (entry, body) => {
      const dest = path.join(stage, ...entry.name.split('/'));
      if (entry.type === 'directory') fs.mkdirSync(dest, { recursive: true });
      else if (entry.type === 'file') hashes.set(entry.name, await writeEntry(dest, body, entry.mode));
    });
  } catch (err) {
    if (err instanceof TarError) throw new RestoreError(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR' || code === 'ERR_STREAM_PREMATURE_CLOSE') {
      throw new RestoreError(`${archive} is not a complete .tar.gz backup (${(err as Error).message})`);
    }
    throw err;
  } finally {
    input.destroy();
  }
  return hashes;
}

/** Checks the unpacked backup before anything in DATA_DIR is touched. */
function verify(stage: string, hashes: Map<string, string>): { manifest: BackupManifest | undefined; photos: number } {
  if (!hashes.has(DB_NAME)) throw new RestoreError(`The archive holds no ${DB_NAME}: it is not a backup of this site`);
  if (hashes.has(SUMS_NAME)) {
    const lines = fs.readFileSync(path.join(stage, SUMS_NAME), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) {
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
      if (!m) throw new RestoreError(`${SUMS_NAME} in the archive has a line I cannot read: ${line}`);
      const got = hashes.get(m[2]);
      if (got === undefined) throw new RestoreError(`The archive lacks ${m[2]}, which its checksum list names`);
      if (got !== m[1]) throw new RestoreError(`${m[2]} in the archive is damaged (checksum mismatch)`);
    }
  }
  let manifest: BackupManifest | undefined;
  if (hashes.has(MANIFEST_NAME)) manifest = JSON.parse(fs.readFileSync(path.join(stage, MANIFEST_NAME), 'utf8'));
  const photos = listOriginals(path.join(stage, DB_NAME));
  const lacking = photos.filter((p) => !hashes.has(p.path.replace(/\\/g, '/')));
  if (lacking.length > 0) {
    throw new RestoreError(`The archive lacks the originals of ${lacking.length} photo(s), e.g. ${lacking[0].path}`);
  }
  const silent = guestbookAudio(path.join(stage, DB_NAME)).filter((v) => !hashes.has(v.path.replace(/\\/g, '/')));
  if (silent.length > 0) {
    throw new RestoreError(`The archive lacks ${silent.length} guestbook voice note file(s), e.g. ${silent[0].path}`);
  }
  return { manifest, photos: photos.length };
}

/**
 * Restores a backup made by createBackup (or a plain tar.gz of a data folder) into dataDir.
 * Refuses a folder that already holds site data unless force; with force, the database,
 * session secret and media there are replaced only after the archive has been fully checked.
 */
export async function restoreBackup(opts: { archive: string; dataDir: string; force?: boolean }): Promise<RestoreResult> {
  const archive = path.resolve(opts.archive);
  const dataDir = path.resolve(opts.dataDir);
  if (!fs.existsSync(archive)) throw new RestoreError(`No such backup file: ${archive}`);
  const blocking = blockingEntries(dataDir, archive);
  if (blocking.length > 0 && !opts.force) {
    throw new RestoreError(
      `${dataDir} is not empty (it holds ${blocking.slice(0, 5).join(', ')}${blocking.length > 5 ? ', …' : ''}). ` +
        'Restore into an empty folder, or add --force to replace its database and media with the backup.',
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // A restore killed while swapping: its old site comes back first, and what it left goes.
  recoverInterruptedRestore(dataDir);
  const stage = fs.mkdtempSync(path.join(dataDir, STAGE_PREFIX));
  try {
    const hashes = await unpack(archive, stage);
    const { manifest, photos } = verify(stage, hashes);
    // Everyone signs in again after a restore: no session of the backup's time (an older
    // backup may hold some) and no old secret; the server makes a new one at start.
    for (const name of [MANIFEST_NAME, SUMS_NAME, 'session-secret']) fs.rmSync(path.join(stage, name), { force: true });
    clearSessions(path.join(stage, DB_NAME));
    const rebuilt = rebuildMissingDerivatives(path.join(stage, DB_NAME), (name) => hashes.has(name));
    // A plain tar of a whole data folder may carry old backups or leftovers: keep the target's own.
    const incoming = fs.readdirSync(stage).filter((n) => !IGNORED_WHEN_EMPTY.has(n) && !n.startsWith('.backup-') && !n.startsWith('.restore-'));
    // Only now, with the new site complete and checked, is the old one replaced.
    swapIn(dataDir, stage, incoming, REPLACED);
    return { dataDir, manifest, files: hashes.size, photos, rebuilt };
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
