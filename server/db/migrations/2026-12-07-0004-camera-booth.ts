import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// The photo booth: `booths` are the tablets a signed-in user opened /booth on (the browser keeps
// the token; only its SHA-256 is stored), revocable from the dashboard. `booth_shares` are the QR
// codes a booth shows after a session: each opens its one picture (/b/{token}) until it expires.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE booths (
      id TEXT PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      created_by INTEGER,
      created_by_name TEXT,
      created_at TEXT NOT NULL,
      last_used_at TEXT,
      revoked_at TEXT
    ) WITHOUT ROWID`,
    `CREATE TABLE booth_shares (
      token_hash TEXT PRIMARY KEY,
      photo_id TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
      booth_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    ) WITHOUT ROWID`,
    `CREATE INDEX booth_shares_photo ON booth_shares (photo_id)`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [`DROP INDEX IF EXISTS booth_shares_photo`, `DROP TABLE IF EXISTS booth_shares`, `DROP TABLE IF EXISTS booths`]) {
    await sql.raw(s).execute(db);
  }
}
