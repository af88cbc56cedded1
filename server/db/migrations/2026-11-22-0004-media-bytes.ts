import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// The size of each photo's derivatives, measured once, so the space media take (dashboard,
// storage limit) is a sum in SQLite instead of a stat of every file under media/.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE media_bytes (
    photo_id TEXT PRIMARY KEY REFERENCES photos(id) ON DELETE CASCADE,
    thumb_path TEXT,
    display_path TEXT,
    bytes INTEGER NOT NULL
  )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE IF EXISTS media_bytes`.execute(db);
}
