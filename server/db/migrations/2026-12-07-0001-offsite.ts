import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// The off-site copy to the couple's bucket. `offsite_objects` is its queue and its record: one row
// per file under DATA_DIR that belongs in the bucket (its path relative to DATA_DIR is the key
// below the prefix), pending until the bucket confirmed its bytes, then copied; a row whose file
// went is deleting until the bucket's object is gone. `offsite_dirty` names what changed (a photo,
// a guestbook entry, the cover): triggers fill it from the writes themselves, so no code path that
// stores, rotates, regenerates or deletes can forget to tell the copy. `offsite_meta` keeps the
// settings made on the page (secret included, never sent back) and the copier's own notes.
// The triggers upsert (ON CONFLICT DO UPDATE): an OR REPLACE inside a trigger would give way to
// the conflict policy of the statement that fired it (ABORT), failing the photo's own update.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE offsite_objects (
      rel TEXT PRIMARY KEY,
      owner TEXT NOT NULL,
      size INTEGER NOT NULL,
      mtime_ms INTEGER NOT NULL,
      sha256 TEXT,
      state TEXT NOT NULL,
      tries INTEGER NOT NULL DEFAULT 0,
      next_at INTEGER NOT NULL DEFAULT 0,
      upload_id TEXT,
      parts TEXT,
      copied_at TEXT,
      error TEXT,
      evicted INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE INDEX offsite_objects_due ON offsite_objects (next_at) WHERE state != 'copied'`,
    `CREATE INDEX offsite_objects_owner ON offsite_objects (owner)`,
    `CREATE TABLE offsite_dirty (owner TEXT PRIMARY KEY, at INTEGER NOT NULL)`,
    `CREATE TABLE offsite_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TRIGGER offsite_photo_added AFTER INSERT ON photos BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('photo:' || NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_photo_changed AFTER UPDATE OF status, stored_path, thumb_path, display_path, derivative_version, rotation ON photos BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('photo:' || NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_photo_removed AFTER DELETE ON photos BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('photo:' || OLD.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_guestbook_added AFTER INSERT ON guestbook BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('guestbook:' || NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_guestbook_changed AFTER UPDATE OF audio_path, web_audio_path, audio_status ON guestbook BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('guestbook:' || NEW.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_guestbook_removed AFTER DELETE ON guestbook BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('guestbook:' || OLD.id, CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
    `CREATE TRIGGER offsite_settings_changed AFTER UPDATE ON settings BEGIN
      INSERT INTO offsite_dirty (owner, at) VALUES ('cover', CAST(unixepoch('subsec') * 1000 AS INTEGER))
        ON CONFLICT (owner) DO UPDATE SET at = excluded.at;
    END`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP TRIGGER IF EXISTS offsite_settings_changed`,
    `DROP TRIGGER IF EXISTS offsite_guestbook_removed`,
    `DROP TRIGGER IF EXISTS offsite_guestbook_changed`,
    `DROP TRIGGER IF EXISTS offsite_guestbook_added`,
    `DROP TRIGGER IF EXISTS offsite_photo_removed`,
    `DROP TRIGGER IF EXISTS offsite_photo_changed`,
    `DROP TRIGGER IF EXISTS offsite_photo_added`,
    `DROP TABLE IF EXISTS offsite_meta`,
    `DROP TABLE IF EXISTS offsite_dirty`,
    `DROP TABLE IF EXISTS offsite_objects`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
