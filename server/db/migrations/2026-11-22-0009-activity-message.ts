import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// An activity line as a catalogue message (key and values, JSON), so the dashboard shows it in
// each admin's language; `description` keeps the English for older readers and backups.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE activity ADD COLUMN message TEXT`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE activity DROP COLUMN message`).execute(db);
}
