import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// Gallery and admin lists order by (upload_timestamp DESC, id DESC); indexes holding the id too
// let SQLite walk them in order (no sort per page) and skip an OFFSET without reading table rows.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE INDEX photos_visible_order ON photos (is_visible, upload_timestamp DESC, id DESC)`,
    `CREATE INDEX photos_order ON photos (upload_timestamp DESC, id DESC)`,
    `DROP INDEX IF EXISTS photos_visible_ts`,
    `DROP INDEX IF EXISTS photos_upload_ts`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE INDEX IF NOT EXISTS photos_upload_ts ON photos (upload_timestamp DESC)`,
    `CREATE INDEX IF NOT EXISTS photos_visible_ts ON photos (is_visible, upload_timestamp DESC)`,
    `DROP INDEX IF EXISTS photos_order`,
    `DROP INDEX IF EXISTS photos_visible_order`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
