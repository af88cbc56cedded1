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
