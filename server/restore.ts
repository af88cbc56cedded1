// `node dist/server/restore.js ARCHIVE.tar.gz [--data-dir DIR] [--force]`: puts a backup back
// into an empty data folder (stop the site first). Checks the whole archive before touching anything.
import { fail, resolveDataDir } from './backup/cli.js';
import { RestoreError, restoreBackup } from './backup/restore.js';

const USAGE = 'Usage: node dist/server/restore.js ARCHIVE.tar.gz [--data-dir DIR] [--force]\n' +
  'Restores into DATA_DIR (or DIR), which must be empty; --force replaces the database and media there.';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) fail(USAGE, 0);
  const force = args.includes('--force');
  const rest = args.filter((a) => a !== '--force');
  const dataDir = resolveDataDir(rest);
  const unknown = rest.filter((a) => a.startsWith('--'));
  if (unknown.length || rest.length !== 1) fail(unknown.length ? `Unexpected ${unknown[0]}\n${USAGE}` : USAGE);
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
