import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// "Find the photos you're in": the face codes of guests who asked (one per browser), the photos
// each was found in, and per photo the face boxes measured on one of its files (coordinates
// only) so a later scan skips the detector. Codes of faces in gallery photos are never stored.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE face_guests (
      guest_id TEXT PRIMARY KEY,
      code BLOB NOT NULL,
      created_at TEXT NOT NULL,
      scan_complete INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE face_matches (
      guest_id TEXT NOT NULL REFERENCES face_guests (guest_id) ON DELETE CASCADE,
      photo_id TEXT NOT NULL REFERENCES photos (id) ON DELETE CASCADE,
      distance REAL NOT NULL,
      PRIMARY KEY (guest_id, photo_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX face_matches_photo ON face_matches (photo_id)`,
    `CREATE TABLE face_boxes (
      photo_id TEXT PRIMARY KEY REFERENCES photos (id) ON DELETE CASCADE,
      source TEXT NOT NULL,
      boxes TEXT NOT NULL
    )`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [`DROP TABLE IF EXISTS face_boxes`, `DROP TABLE IF EXISTS face_matches`, `DROP TABLE IF EXISTS face_guests`]) {
    await sql.raw(s).execute(db);
  }
}
