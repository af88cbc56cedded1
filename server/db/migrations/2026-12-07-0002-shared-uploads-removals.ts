import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// - photo_owners: guests whose upload of the same bytes was answered "duplicate" own the photo
//   too; the photo's own guest_id stays its first sender. When that sender takes it back, the
//   next owner becomes its guest and the photo stays.
// - removed_originals: an original whose photo row was deleted, until its file is gone. It is
//   written in the row's own transaction, so a failed file delete or a crash before it never
//   makes the start-up sweep take the file for a lost upload.
// - guestbook.anonymous_address: the address a message came from when its request carried no
//   guest cookie, so the hourly limit holds per address for those.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE photo_owners (
      photo_id TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
      guest_id TEXT NOT NULL,
      uploader_name TEXT,
      added_at TEXT NOT NULL,
      PRIMARY KEY (photo_id, guest_id)
    ) WITHOUT ROWID`,
    `CREATE INDEX photo_owners_guest ON photo_owners (guest_id)`,
    `CREATE TABLE removed_originals (
      stored_path TEXT PRIMARY KEY,
      photo_id TEXT NOT NULL,
      removed_at TEXT NOT NULL
    ) WITHOUT ROWID`,
    `ALTER TABLE guestbook ADD COLUMN anonymous_address TEXT`,
    `CREATE INDEX guestbook_anonymous_address ON guestbook (anonymous_address, created_at) WHERE anonymous_address IS NOT NULL`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP INDEX IF EXISTS guestbook_anonymous_address`,
    `ALTER TABLE guestbook DROP COLUMN anonymous_address`,
    `DROP TABLE IF EXISTS removed_originals`,
    `DROP INDEX IF EXISTS photo_owners_guest`,
    `DROP TABLE IF EXISTS photo_owners`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
