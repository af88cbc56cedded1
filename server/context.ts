import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from './config.js';
import type { Sqlite } from './db/open.js';
import type { DB } from './db/schema.js';
import type { SqliteSessionStore } from './auth/session-store.js';

/** Where things live under DATA_DIR. */
export interface DataPaths {
  root: string;
  database: string;
  /** Originals, named by generated ids. */
  originals: string;
  /** Thumbnails, display images and posters. */
  derived: string;
  /** Partial uploads and files being received. */
  incoming: string;
  /** Guestbook voice notes: as sent, and the copies every browser plays. */
  guestbook: string;
}

export function dataPaths(dataDir: string): DataPaths {
  return {
    root: dataDir,
    database: path.join(dataDir, 'wedding.db'),
    originals: path.join(dataDir, 'media', 'originals'),
    derived: path.join(dataDir, 'media', 'derived'),
    incoming: path.join(dataDir, 'media', 'incoming'),
    guestbook: path.join(dataDir, 'media', 'guestbook'),
  };
}

/** Which photos a long read of originals (an export) takes in. */
export type OriginalsScope = { ids: readonly string[] } | { visibleOnly: boolean };

/**
 * Where an original is read from. With the local disk as a cache of the couple's bucket
 * (S3_KEEP_LOCAL=derivatives) an original the disk gave up is fetched back, its SHA-256 checked,
 * before it is read; otherwise it is simply the file under DATA_DIR (localOriginals).
 */
export interface Originals {
  /**
   * The original's absolute path, on the local disk once this resolves; null when the stored path
   * would leave DATA_DIR. Rejects with an AppError (503 "unavailable") when the original is only in
   * the bucket and the bucket does not answer; nothing is lost then.
   */
  ensure(photo: { id: string; stored_path: string }): Promise<string | null>;
  /** Rejects the same way, before a long download starts, when originals it would read are only in the bucket and it does not answer. */
  reachable(scope: OriginalsScope): Promise<void>;
}

/** Originals read straight from the local disk (no bucket holds any of them). */
export function localOriginals(paths: DataPaths): Originals {
  return {
    async ensure(photo) {
      const abs = path.resolve(paths.root, photo.stored_path);
      return abs.startsWith(path.resolve(paths.root) + path.sep) ? abs : null;
    },
    async reachable() {},
  };
}

/**
 * The infrastructure server.ts opens once. Modules never receive it: their factories take the
 * few handles they need. Tests and CLIs reach it through RunningServer.ctx.
 */
export interface AppContext {
  config: Config;
  paths: DataPaths;
  sqlite: Sqlite;
  db: Kysely<DB>;
  sessions: SqliteSessionStore;
  sessionSecret: string;
}
