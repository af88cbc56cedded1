import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// Guests without accounts: each upload records the browser's random guest id (the wedding_guest
// cookie), so a guest can list and take back their own files. Upload activity rows carry the guest
// and running counts, so a burst of files from one guest stays one row on the dashboard.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `ALTER TABLE photos ADD COLUMN guest_id TEXT`,
    `CREATE INDEX photos_guest_ts ON photos (guest_id, upload_timestamp DESC) WHERE guest_id IS NOT NULL`,
    `CREATE INDEX photos_uploader ON photos (uploader_name) WHERE uploader_name IS NOT NULL`,
    `ALTER TABLE activity ADD COLUMN guest_id TEXT`,
    `ALTER TABLE activity ADD COLUMN photo_count INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE activity ADD COLUMN video_count INTEGER NOT NULL DEFAULT 0`,
    `CREATE INDEX activity_guest ON activity (guest_id, id DESC) WHERE guest_id IS NOT NULL`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP INDEX IF EXISTS activity_guest`,
    `ALTER TABLE activity DROP COLUMN video_count`,
    `ALTER TABLE activity DROP COLUMN photo_count`,
    `ALTER TABLE activity DROP COLUMN guest_id`,
    `DROP INDEX IF EXISTS photos_uploader`,
    `DROP INDEX IF EXISTS photos_guest_ts`,
    `ALTER TABLE photos DROP COLUMN guest_id`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
