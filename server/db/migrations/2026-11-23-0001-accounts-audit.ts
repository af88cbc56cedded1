import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// Admin accounts on a public address: passkeys (WebAuthn credentials), authenticator codes with
// one-time recovery codes (only their hashes), and the audit log of every admin action.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE audit_log (
      id INTEGER PRIMARY KEY,
      at TEXT NOT NULL,
      user_id INTEGER,
      username TEXT,
      action TEXT NOT NULL,
      ids TEXT,
      detail TEXT,
      address TEXT
    )`,
    `CREATE INDEX audit_log_at ON audit_log (at)`,
    `CREATE INDEX audit_log_action ON audit_log (action, id DESC)`,
    `CREATE INDEX audit_log_username ON audit_log (username COLLATE NOCASE, id DESC)`,
    `CREATE TABLE webauthn_handles (
      user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      handle TEXT NOT NULL UNIQUE
    )`,
    `CREATE TABLE passkeys (
      id TEXT PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      public_key BLOB NOT NULL,
      counter INTEGER NOT NULL DEFAULT 0,
      transports TEXT,
      device_type TEXT,
      backed_up INTEGER NOT NULL DEFAULT 0,
      name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      last_used_at TEXT
    )`,
    `CREATE INDEX passkeys_user ON passkeys (user_id)`,
    `CREATE TABLE two_step (
      user_id INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      secret TEXT NOT NULL,
      enabled_at TEXT NOT NULL,
      last_step INTEGER NOT NULL DEFAULT 0
    )`,
    `CREATE TABLE recovery_codes (
      id INTEGER PRIMARY KEY,
      user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      code_hash TEXT NOT NULL,
      used_at TEXT
    )`,
    `CREATE INDEX recovery_codes_user ON recovery_codes (user_id)`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['recovery_codes', 'two_step', 'passkeys', 'webauthn_handles', 'audit_log']) {
    await sql.raw(`DROP TABLE IF EXISTS ${t}`).execute(db);
  }
}
