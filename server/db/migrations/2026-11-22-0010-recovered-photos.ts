import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// An original found at start that no photo owned (a crash or power cut between its rename and
// its row) becomes a photo again; when that happened is recorded, and automatic approval leaves
// such a photo hidden for the couple to look at. One statement: it applies whole or not at all.
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE photos ADD COLUMN recovered_at TEXT`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE photos DROP COLUMN recovered_at`).execute(db);
}
