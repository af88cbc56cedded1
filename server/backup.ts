// `npm run backup -- [archive.tar.gz] [--data-dir DIR]`, or in the image:
// `docker exec wedding node dist/server/backup.js /data/backups/wedding-<date>.tar.gz`.
// Safe while the site runs; the archive appears under its name only when complete.
import fs from 'node:fs';
import path from 'node:path';
import { fail, megabytes, resolveDataDir } from './backup/cli.js';
import { createBackup } from './backup/create.js';
import { offsiteFromEnv } from './offsite/offsite.config.js';
import { originalsFromBucket } from './offsite/bucket-originals.js';

const USAGE = 'Usage: node dist/server/backup.js [ARCHIVE.tar.gz] [--data-dir DIR]\n' +
  'Writes one archive with the database and every photo and video. Without ARCHIVE it goes to DATA_DIR/backups/.';

const plural = (n: number, one: string, many = one + 's') => `${n} ${n === 1 ? one : many}`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) fail(USAGE, 0);
  const dataDir = resolveDataDir(args);
  const unknown = args.filter((a) => a.startsWith('--'));
  if (unknown.length || args.length > 1) fail(`Unexpected ${unknown[0] ?? args[1]}\n${USAGE}`);
  const started = Date.now();
  // Ctrl-C or `docker stop` mid-way: stop cleanly so no staging folder or partial file stays behind.
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
  let finished = false;
  // Were a stream ever to stall with nothing left to wait on, Node would exit 0 silently: say it failed.
  process.once('beforeExit', () => {
    if (!finished) fail('Backup failed: it stopped before the archive was complete', 1);
  });
  // Originals the local disk gave up (S3_KEEP_LOCAL=derivatives) come from the couple's bucket.
  const fromBucket = fs.existsSync(path.join(dataDir, 'wedding.db')) ? originalsFromBucket(path.join(dataDir, 'wedding.db'), offsiteFromEnv(process.env, [])) : null;
  const { archive, manifest } = await createBackup({ dataDir, archive: args[0], signal: stop.signal, fetchOriginal: fromBucket?.fetch }).finally(() => fromBucket?.close());
  finished = true;
  const c = manifest.counts;
  process.stdout.write(
    `Backup written: ${archive}\n` +
      `  ${plural(c.photos ?? 0, 'photo or video', 'photos and videos')}, ${plural(c.users ?? 0, 'account')}, ` +
      `${plural(manifest.files.derived, 'thumbnail file')}; ` +
      `${megabytes(fs.statSync(archive).size)} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  if (manifest.dropped_photos.length) {
    process.stdout.write(
      `  Note: ${manifest.dropped_photos.length} photo(s) had no original file on disk (deleted as the backup started?) and are left out.\n`,
    );
  }
}

main().catch((err) => fail(`Backup failed: ${err instanceof Error ? err.message : String(err)}`, 1));
