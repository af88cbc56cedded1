// What the server's main thread and its database writer thread (server/db-writer.ts) say to each
// other. One statement per message; the main thread decides what runs together (db/writer.ts).
import type { MessagePort } from 'node:worker_threads';
import type { Sqlite } from './open.js';

export interface WriterSetup {
  file: string;
}

/** What the writer thread is started with: answers go over `answers`, and each one adds 1 to `answered[0]`. */
export interface WriterData extends WriterSetup {
  answers: MessagePort;
  answered: SharedArrayBuffer;
}

export type ToWriter = { type: 'run'; id: number; sql: string; params: readonly unknown[] } | { type: 'close' };

export interface WriteResult {
  /** The statement's rows: a SELECT inside a transaction, or INSERT … RETURNING. */
  rows: Record<string, unknown>[];
  changes: number;
  lastInsertRowid: number | bigint;
}

/** Runs one statement on `db`: its rows when it returns any, else what it changed. */
export function runStatement(db: Sqlite, sql: string, params: readonly unknown[]): WriteResult {
  const stmt = db.prepare(sql);
  if (stmt.reader) return { rows: stmt.all(params) as Record<string, unknown>[], changes: 0, lastInsertRowid: 0 };
  const { changes, lastInsertRowid } = stmt.run(params);
  return { rows: [], changes, lastInsertRowid };
}

export type FromWriter =
  | ({ type: 'done'; id: number } & WriteResult)
  | { type: 'failed'; id: number; error: { message: string; code?: string } }
  | { type: 'closed' };

/** SQLite's error again on this side of the thread, with its code (SQLITE_FULL, SQLITE_CONSTRAINT_…). */
export function writerError(sent: { message: string; code?: string }): Error {
  const e = new Error(sent.message) as Error & { code?: string };
  e.name = 'SqliteError';
  if (sent.code) e.code = sent.code;
  return e;
}
