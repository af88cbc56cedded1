import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { RoutedSqliteDialect } from './routed-dialect.js';
import type { DB } from './schema.js';
import type { SqlWriter } from './writer.js';

export type Sqlite = Database.Database;

/*
 * Node >= 24.19 aborts the whole process (SIGABRT, "Assertion failed: (env) != nullptr" in
 * RemoveEnvironmentCleanupHook) when V8 finalises a better-sqlite3 12 Statement or Database
 * during an idle GC. better-sqlite3 13 fixes it but needs Node 22+, and we run on Node 20 and
 * 24. So no handle is ever left for the GC: every connection stays referenced, and prepare()
 * hands out one cached Statement per SQL text for the connection's life (Kysely prepares on
 * every query; the distinct texts are few). Never call db.pragma(): it prepares outside the
 * cache; use exec() or prepare('PRAGMA ...').
 */
const connections: Sqlite[] = [];

const onFull = new WeakMap<Sqlite, () => boolean>();

/**
 * When a write finds the disk full, `freeSpace` may give some back (it answers whether it did);
 * a statement that ran on its own (not inside a transaction, which SQLite may have rolled back)
 * is then tried once more. This keeps sign-ins working while another program fills the disk.
 */
export function retryWhenDiskFull(db: Sqlite, freeSpace: () => boolean): void {
  onFull.set(db, freeSpace);
}

function retriedWhenFull(db: Sqlite, stmt: Database.Statement): Database.Statement {
  for (const method of ['run', 'get', 'all'] as const) {
    const call = stmt[method].bind(stmt) as (...args: unknown[]) => unknown;
    (stmt as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      const alone = !db.inTransaction;
      try {
        return call(...args);
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_FULL') throw e;
        const freed = onFull.get(db)?.() ?? false;
        if (freed && alone) return call(...args);
        throw e;
      }
    };
  }
  return stmt;
}

/** A better-sqlite3 connection whose statements are never garbage-collected (see above). */
export function openDatabase(file: string, options?: Database.Options): Sqlite {
  const db = new Database(file, options);
  connections.push(db);
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = retriedWhenFull(db, prepare(source));
      cache.set(source, stmt);
    }
    return stmt;
  }) as Sqlite['prepare'];
  return db;
}

/**
 * WAL pages between checkpoints (SQLite's default is 1000, 4 MB). A checkpoint runs inside the
 * commit that fills the WAL and fsyncs the database file (in the server, on the writer thread);
 * under an upload rush the disk is busy flushing uploads and one such fsync took 380 ms, with
 * every write behind it. At 4000 pages (16 MB of WAL) the 100-guest rush made 26 fsyncs
 * instead of 89.
 */
export const WAL_AUTOCHECKPOINT_PAGES = 4000;

/**
 * SQLite's own page cache per connection, in KiB (SQLite's default is 2 MiB). This VM hands file
 * pages back to its host soon after they are used (under 1 GB stays cached after an upload rush),
 * so a page SQLite does not hold itself may have to come from a disk busy with uploads. 32 MiB
 * holds the whole database of a large wedding (about 10 MB for 10,000 photos); it is memory
 * only for pages really read. The writer's connection keeps its pages between transactions; a
 * reader's are dropped whenever another connection has written, so reads take from the cache
 * within a transaction and the writer's indexes are always at hand.
 */
export const CACHE_KIB = 32 * 1024;

/**
 * Opens the app's SQLite file (or ':memory:') with the pragmas the app relies on. secure_delete
 * FAST: a deleted row's bytes are overwritten in the page that held it (no extra writes), so a
 * guest's face code is gone from the file once "Forget me" has been checkpointed.
 */
export function openSqlite(file: string): Sqlite {
  const db = openDatabase(file);
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}; PRAGMA secure_delete = FAST; PRAGMA cache_size = -${CACHE_KIB};`);
  return db;
}

/**
 * Kysely on `sqlite`. With a `writer` (the server), only reads run on `sqlite` and every write
 * goes to the writer's connection (db/routed-dialect.ts); without one (tools, tests), all of it
 * runs on `sqlite`.
 */
export function createKysely(sqlite: Sqlite, writer?: SqlWriter): Kysely<DB> {
  return new Kysely<DB>({ dialect: writer ? new RoutedSqliteDialect(sqlite, writer) : new SqliteDialect({ database: sqlite }) });
}
