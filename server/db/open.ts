import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DB } from './schema.js';

export type Sqlite = Database.Database;

/** Opens the SQLite file (or ':memory:') with the pragmas the app relies on. */
export function openSqlite(file: string): Sqlite {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  return db;
}

export function createKysely(sqlite: Sqlite): Kysely<DB> {
  return new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
}
