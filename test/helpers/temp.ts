import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/**
 * A fresh directory under the system's temp folder, removed when this test file's process exits
 * (node:test runs each file in a process of its own), so runs of the suite leave nothing behind.
 */
export function tempDir(prefix = 'wedding-test-', parent = os.tmpdir()): string {
  const dir = fs.mkdtempSync(path.join(parent, prefix));
  if (!made.length) process.once('exit', removeAll);
  made.push(dir);
  return dir;
}

/**
 * Like tempDir, in memory (/dev/shm) where the machine has it: for tests over multi-gigabyte
 * sparse files. On ext4 the first read of a hole still fills the page cache with zeroed pages
 * (2.2 GB took 35 s of kernel time here); tmpfs answers a hole with its zero page (1.4 s), and a
 * hole takes no memory there.
 */
export function memoryTempDir(prefix = 'wedding-test-'): string {
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
  } catch {
    return tempDir(prefix);
  }
  return tempDir(prefix, '/dev/shm');
}

function removeAll(): void {
  for (const dir of made.splice(0)) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // A directory a test left mounted or busy: nothing more to do at exit.
    }
  }
}
