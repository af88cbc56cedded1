import path from 'node:path';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../../server/db/migrate.js';
import { createKysely, openSqlite, type Sqlite } from '../../server/db/open.js';
import type { DB } from '../../server/db/schema.js';
import { tempDir } from './server.js';

/** A real, migrated SQLite file in a fresh temp dir, for tests that drive the job queue without a server. */
export async function migratedDb(prefix: string): Promise<{ sqlite: Sqlite; db: Kysely<DB> }> {
  const sqlite = openSqlite(path.join(tempDir(prefix), 'q.db'));
  await migrateToLatest(sqlite);
  return { sqlite, db: createKysely(sqlite) };
}

/** A bare photos row for a job to point at (jobs reference a photo); returns its id. */
export function insertBarePhoto(sqlite: Sqlite, id: string, filename: string, contentType: string): string {
  sqlite
    .prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp) VALUES (?, ?, 'x', ?, 1, ?, ?)`)
    .run(id, filename, contentType, `sha-${id}`, new Date().toISOString());
  return id;
}
