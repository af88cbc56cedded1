import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// - keepsakes: the films and photo books made from the day; their files live under
//   media/keepsakes/, `path` relative to DATA_DIR once ready.
// - keepsake_music: the couple's own tracks for the films, under media/keepsakes/music/.
// - keepsake_share: one row when the newest ready film is shown to guests on the gallery page.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE keepsakes (
      id TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('film', 'book')),
      status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'making', 'ready', 'error')),
      progress INTEGER NOT NULL DEFAULT 0,
      options TEXT NOT NULL,
      path TEXT,
      file_size INTEGER,
      error TEXT,
      created_by TEXT,
      created_at TEXT NOT NULL,
      finished_at TEXT
    ) WITHOUT ROWID`,
    `CREATE INDEX keepsakes_created ON keepsakes (created_at)`,
    `CREATE TABLE keepsake_music (
      id TEXT PRIMARY KEY,
      path TEXT NOT NULL,
      original_name TEXT NOT NULL,
      content_type TEXT NOT NULL,
      file_size INTEGER NOT NULL,
      duration REAL NOT NULL,
      created_at TEXT NOT NULL
    ) WITHOUT ROWID`,
    `CREATE TABLE keepsake_share (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      share_film INTEGER NOT NULL DEFAULT 0,
      updated_at TEXT NOT NULL
    )`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [`DROP TABLE IF EXISTS keepsake_share`, `DROP TABLE IF EXISTS keepsake_music`, `DROP INDEX IF EXISTS keepsakes_created`, `DROP TABLE IF EXISTS keepsakes`]) {
    await sql.raw(s).execute(db);
  }
}
