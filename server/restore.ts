// `node dist/server/restore.js ARCHIVE.tar.gz [--data-dir DIR] [--force]`: puts a backup back
// into an empty data folder (stop the site first). Checks the whole archive before touching anything.
// `node dist/server/restore.js --from-bucket [--data-dir DIR] [--force]`: rebuilds the data folder
// from the couple's bucket (S3_* as the site had them): the newest database copy and every file.
import { fail, megabytes, resolveDataDir } from './backup/cli.js';
import { RestoreError, restoreBackup } from './backup/restore.js';
import { effectiveSettings, offsiteFromEnv } from './offsite/offsite.config.js';
import { restoreFromBucket } from './offsite/restore-from-bucket.js';

const USAGE =
  'Usage: node dist/server/restore.js ARCHIVE.tar.gz [--data-dir DIR] [--force]\n' +
  '       node dist/server/restore.js --from-bucket [--data-dir DIR] [--force]\n' +
  'Restores into DATA_DIR (or DIR), which must be empty; --force replaces the database and media there.\n' +
  '--from-bucket reads the off-site copy in the bucket that S3_ENDPOINT, S3_BUCKET, S3_PREFIX, S3_REGION,\n' +
  'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY name, as the site had them.';

const MAX_LISTED = 50;

async function fromBucket(dataDir: string, force: boolean): Promise<void> {
  const problems: string[] = [];
  const env = offsiteFromEnv(process.env, problems);
  if (problems.length) fail(problems.join('\n'));
  const settings = effectiveSettings(env, {});
  const progress = (line: string) => process.stdout.write(`  ${line}\n`);
  process.stdout.write(`Restoring from the bucket ${settings.bucket}${settings.prefix ? `/${settings.prefix}` : ''} at ${settings.endpoint} into ${dataDir}\n`);
  const r = await restoreFromBucket({ settings, dataDir, force, progress });
  const c = r.counts;
  process.stdout.write(
    `Restored from the database copy of ${r.database.at.toISOString()}: ${c.photos} photos and videos, ${c.users} accounts, ${c.guestbook} guestbook messages.\n` +
      `  ${r.files} files (${megabytes(r.bytes)}) in ${(r.ms / 1000).toFixed(1)} s; ${r.checked} originals match their SHA-256.\n` +
      (r.remade ? `  The thumbnails or web copies of ${r.remade} photos were not in the bucket: the site makes them again when it starts.\n` : ''),
  );
  const list = (title: string, rels: string[]) => {
    if (!rels.length) return;
    process.stdout.write(`${title} (${rels.length}):\n${rels.slice(0, MAX_LISTED).map((x) => `  ${x}\n`).join('')}${rels.length > MAX_LISTED ? `  … and ${rels.length - MAX_LISTED} more\n` : ''}`);
  };
  list('Missing: the database names these files, the bucket did not give them', r.missing);
  list('Damaged: these originals do not match the SHA-256 the database has for them (kept as they came)', r.damaged);
  if (r.missing.length || r.damaged.length) {
    process.stdout.write('The site can start with what was restored; the files above are not among it.\n');
    process.exit(1);
  }
  process.stdout.write('Nothing is missing. Start the site as usual (with the same S3_* settings); everyone signs in again.\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) fail(USAGE, 0);
  const force = args.includes('--force');
  const bucket = args.includes('--from-bucket');
  const rest = args.filter((a) => a !== '--force' && a !== '--from-bucket');
  const dataDir = resolveDataDir(rest);
  const unknown = rest.filter((a) => a.startsWith('--'));
  if (unknown.length) fail(`Unexpected ${unknown[0]}\n${USAGE}`);
  if (bucket) {
    if (rest.length) fail(`--from-bucket takes no archive (got ${rest[0]})\n${USAGE}`);
    return fromBucket(dataDir, force);
  }
  if (rest.length !== 1) fail(USAGE);
  const result = await restoreBackup({ archive: rest[0], dataDir, force });
  const when = result.manifest ? ` made ${result.manifest.created_at}` : '';
  process.stdout.write(
    `Restored the backup${when} into ${result.dataDir}: ${result.photos} photos and videos, ${result.files} files checked.\n` +
      (result.rebuilt ? `  The thumbnails or web copies of ${result.rebuilt} of them were not in the archive: the site makes them again when it starts.\n` : '') +
      'Start the site as usual; it picks up from there.\n',
  );
}

main().catch((err) => {
  if (err instanceof RestoreError) fail(`Restore refused: ${err.message}`, 1);
  fail(`Restore failed: ${err instanceof Error ? err.message : String(err)}`, 1);
});
