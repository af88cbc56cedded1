import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { openDatabase } from '../../server/db/open.js';
import { tempDir } from './temp.js';

/** A small tmpfs (`size` like '64m'), or undefined (with a loud note) where this machine may not mount one. */
export function smallDisk(size = '64m', what = 'the full-disk test'): { dir: string; unmount(): void } | undefined {
  const dir = tempDir('wedding-tmpfs-');
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  if (r.status !== 0) {
    process.stderr.write(`\n!!! SKIPPING ${what}: mounting a tmpfs was refused (${r.stderr.toString().trim()})\n\n`);
    return undefined;
  }
  return { dir, unmount: () => void spawnSync('umount', [dir]) };
}

/**
 * Another program filling the filesystem, and taking whatever space is freed (the server's own
 * space reserve included) until it is stopped; stop() also deletes its file.
 */
export function hog(file: string): { stop(): void } {
  const fd = fs.openSync(file, 'w');
  const fillUp = () => {
    for (const size of [1 << 20, 4096, 512]) {
      const block = Buffer.alloc(size, 1);
      for (;;) {
        try {
          fs.writeSync(fd, block);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw e;
        }
      }
    }
  };
  fillUp();
  const timer = setInterval(fillUp, 20);
  return {
    stop() {
      clearInterval(timer);
      fs.closeSync(fd);
      fs.rmSync(file);
    },
  };
}

/**
 * Runs `send` while another connection holds the database's write lock, and resolves once a new
 * file appears in `originals`: the upload's original was moved into place and its commit now
 * waits for the lock. `release()` ends the other connection's transaction.
 */
export async function heldBeforeCommit<T>(database: string, originals: string, send: () => Promise<T>): Promise<{ answer: Promise<T>; moved: string; release(): void }> {
  const before = new Set(fs.readdirSync(originals));
  const other = openDatabase(database);
  other.exec('BEGIN IMMEDIATE');
  const release = () => {
    if (!other.open) return;
    other.exec('ROLLBACK');
    other.close();
  };
  const answer = send();
  let moved: string | undefined;
  for (let i = 0; i < 3000 && !moved; i++) {
    moved = fs.readdirSync(originals).find((n) => !before.has(n));
    if (!moved) await new Promise((r) => setTimeout(r, 10));
  }
  if (!moved) {
    release();
    throw new Error('no original was moved into place');
  }
  return { answer, moved, release };
}
