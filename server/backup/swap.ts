import fs from 'node:fs';
import path from 'node:path';

/**
 * Replacing a site's files is a handful of renames, but a process can die between any two. So
 * the old entries are first moved aside into a `.restore-old-*` folder holding a journal; the
 * journal goes only once every new entry is in place. A folder still holding its journal is
 * an unfinished swap: `recoverInterruptedRestore` puts the old site back (at the next restore
 * and at server start), so an interrupted restore leaves the old site working.
 */
export const ASIDE_PREFIX = '.restore-old-';
/** A restore unpacks into `.restore-*` first (see restore.ts). */
export const STAGE_PREFIX = '.restore-';
const JOURNAL = 'swap-journal.json';

function writeDurably(file: string, text: string): void {
  const fd = fs.openSync(file, 'w', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Moves `names` from `stage` into `dataDir`, replacing entries there named in `replaced` or `names`. */
export function swapIn(dataDir: string, stage: string, names: readonly string[], replaced: readonly string[]): void {
  const aside = fs.mkdtempSync(path.join(dataDir, ASIDE_PREFIX));
  const touched = [...new Set([...replaced, ...names])];
  writeDurably(path.join(aside, JOURNAL), JSON.stringify({ names: touched }));
  for (const name of touched) {
    if (fs.existsSync(path.join(dataDir, name))) fs.renameSync(path.join(dataDir, name), path.join(aside, name));
  }
  for (const name of names) fs.renameSync(path.join(stage, name), path.join(dataDir, name));
  // The commit point: from here on the new site stands and the old one is only clutter.
  fs.rmSync(path.join(aside, JOURNAL));
  fs.rmSync(aside, { recursive: true, force: true });
}

/**
 * After a restore was killed: undoes a swap it left half done, then removes what it left
 * behind (finished swaps' leftovers, staging folders that can be as big as the backup). A
 * restore runs with the site stopped, so none of them is in use. Returns the swaps undone.
 */
export function recoverInterruptedRestore(dataDir: string): number {
  let undone = 0;
  let entries: string[];
  try {
    entries = fs.readdirSync(dataDir);
  } catch {
    return 0;
  }
  for (const entry of entries.filter((n) => n.startsWith(ASIDE_PREFIX))) {
    const aside = path.join(dataDir, entry);
    const journal = path.join(aside, JOURNAL);
    if (fs.existsSync(journal)) {
      const { names } = JSON.parse(fs.readFileSync(journal, 'utf8')) as { names: string[] };
      for (const name of names) {
        // Whatever of the new site got in goes; whatever of the old one was moved aside comes back.
        fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
        if (fs.existsSync(path.join(aside, name))) fs.renameSync(path.join(aside, name), path.join(dataDir, name));
      }
      undone++;
    }
    fs.rmSync(aside, { recursive: true, force: true });
  }
  for (const entry of entries.filter((n) => n.startsWith(STAGE_PREFIX) && !n.startsWith(ASIDE_PREFIX))) {
    fs.rmSync(path.join(dataDir, entry), { recursive: true, force: true });
  }
  return undone;
}
