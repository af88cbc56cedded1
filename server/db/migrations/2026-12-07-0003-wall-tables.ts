import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// photos.table_number: the table whose QR sign the upload came from (/live?table=7), null when
// none. The partial index serves the gallery's filter by table and the counts per table.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE photos ADD COLUMN table_number INTEGER`).execute(db);
  await sql.raw(`CREATE INDEX photos_table_order ON photos (table_number, upload_timestamp DESC, id DESC) WHERE table_number IS NOT NULL`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS photos_table_order`).execute(db);
  await sql.raw(`ALTER TABLE photos DROP COLUMN table_number`).execute(db);
}
