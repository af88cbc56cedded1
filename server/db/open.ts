import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DB } from './schema.js';

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

/** A better-sqlite3 connection whose statements are never garbage-collected (see above). */
export function openDatabase(file: string, options?: Database.Options): Sqlite {
  const db = new Database(file, options);
  connections.push(db);
  const cache = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    let stmt = cache.get(source);
    if (!stmt) {
      stmt = prepare(source);
      cache.set(source, stmt);
    }
    return stmt;
  }) as Sqlite['prepare'];
  return db;
}

/** Opens the app's SQLite file (or ':memory:') with the pragmas the app relies on. */
export function openSqlite(file: string): Sqlite {
  const db = openDatabase(file);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  return db;
}

export function createKysely(sqlite: Sqlite): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
}
