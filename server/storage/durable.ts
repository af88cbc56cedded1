import type { DataPaths } from '../context.js';
import { GroupSync } from './group-sync.js';

/**
 * What an answer that says "stored" (an upload, a guestbook message) waits for (CONTRACT "Nothing acknowledged is ever lost"):
 * the upload's bytes are synced as they arrive (write-back.ts); these make the rest of it
 * durable. SQLite runs in WAL mode with synchronous=NORMAL, where a commit is in the WAL file but
 * not necessarily on the disk: syncing the WAL after the commit makes it so, and one sync serves
 * every commit made before it started.
 */
export interface Durable {
  /** Files renamed into media/originals so far keep their names across a power cut. */
  originals(): Promise<void>;
  /** Voice notes renamed into media/guestbook so far keep their names across a power cut. */
  guestbook(): Promise<void>;
  /** Every transaction committed so far survives a power cut. */
  commits(): Promise<void>;
}

export function durableStorage(paths: DataPaths): Durable {
  const originals = new GroupSync(paths.originals, 'folder');
  const guestbook = new GroupSync(paths.guestbook, 'folder');
  const wal = new GroupSync(`${paths.database}-wal`, 'file', paths.database);
  return { originals: () => originals.sync(), guestbook: () => guestbook.sync(), commits: () => wal.sync() };
}
