import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// Unfinished chunked uploads are capped per upload session and per client address; these
// count them without a scan of the whole table.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `ALTER TABLE uploads ADD COLUMN client_address TEXT`,
    `CREATE INDEX uploads_open_by_session ON uploads (session_id, status)`,
    `CREATE INDEX uploads_open_by_client ON uploads (client_address, status)`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP INDEX IF EXISTS uploads_open_by_client`,
    `DROP INDEX IF EXISTS uploads_open_by_session`,
    `ALTER TABLE uploads DROP COLUMN client_address`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
