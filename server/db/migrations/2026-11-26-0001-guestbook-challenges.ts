import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// Guestbook messages: text, an optional name, and an optional voice note (the file as sent, plus
// a copy every browser plays, made by the processing queue). Visible ones list newest first from
// a partial index; a guest's own list and the hourly limit read the guest index.
// Photo challenges: each photo may name the challenge it answers (the ids live in the settings).
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE guestbook (
      id TEXT PRIMARY KEY,
      guest_id TEXT,
      name TEXT,
      message TEXT NOT NULL,
      is_visible INTEGER NOT NULL DEFAULT 0,
      approved_at TEXT,
      created_at TEXT NOT NULL,
      audio_path TEXT,
      audio_type TEXT,
      audio_size INTEGER,
      audio_sha256 TEXT,
      duration REAL,
      web_audio_path TEXT,
      web_audio_size INTEGER,
      audio_status TEXT NOT NULL DEFAULT 'none',
      audio_error TEXT
    )`,
    `CREATE INDEX guestbook_visible_order ON guestbook (created_at DESC, id DESC) WHERE is_visible = 1`,
    `CREATE INDEX guestbook_order ON guestbook (created_at DESC, id DESC)`,
    `CREATE INDEX guestbook_guest ON guestbook (guest_id, created_at DESC) WHERE guest_id IS NOT NULL`,
    `ALTER TABLE photos ADD COLUMN challenge_id TEXT`,
    `CREATE INDEX photos_challenge_order ON photos (challenge_id, upload_timestamp DESC, id DESC) WHERE challenge_id IS NOT NULL`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP INDEX IF EXISTS photos_challenge_order`,
    `ALTER TABLE photos DROP COLUMN challenge_id`,
    `DROP TABLE IF EXISTS guestbook`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
