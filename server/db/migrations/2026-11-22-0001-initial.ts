import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here; later changes go in new migration files.
export async function up(db: Kysely<any>): Promise<void> {
  const statements = [
    `CREATE TABLE users (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      username TEXT NOT NULL COLLATE NOCASE UNIQUE,
      email TEXT NOT NULL,
      full_name TEXT NOT NULL,
      role TEXT NOT NULL CHECK (role IN ('family','bride','groom','admin')),
      password_hash TEXT NOT NULL,
      is_active INTEGER NOT NULL DEFAULT 1,
      created_at TEXT NOT NULL,
      last_login TEXT
    )`,
    `CREATE TABLE sessions (
      sid TEXT PRIMARY KEY,
      sess TEXT NOT NULL,
      expires INTEGER NOT NULL
    )`,
    `CREATE INDEX sessions_expires ON sessions (expires)`,
    `CREATE TABLE activity (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type TEXT NOT NULL CHECK (type IN ('upload','login','approval','user_created','other')),
      description TEXT NOT NULL,
      user_name TEXT,
      created_at TEXT NOT NULL
    )`,
    `CREATE TABLE settings (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      data TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE photos (
      id TEXT PRIMARY KEY,
      original_filename TEXT NOT NULL,
      stored_path TEXT NOT NULL,
      content_type TEXT NOT NULL,
      file_size INTEGER NOT NULL,
      sha256 TEXT NOT NULL UNIQUE,
      width INTEGER,
      height INTEGER,
      orientation INTEGER,
      rotation INTEGER NOT NULL DEFAULT 0,
      duration REAL,
      date_taken TEXT,
      camera_make TEXT,
      camera_model TEXT,
      status TEXT NOT NULL DEFAULT 'processing' CHECK (status IN ('processing','complete','error')),
      processing_error TEXT,
      thumb_path TEXT,
      display_path TEXT,
      derivative_version INTEGER NOT NULL DEFAULT 0,
      is_visible INTEGER NOT NULL DEFAULT 0,
      upload_timestamp TEXT NOT NULL,
      approved_at TEXT,
      session_id TEXT,
      uploader_name TEXT
    )`,
    `CREATE INDEX photos_upload_ts ON photos (upload_timestamp DESC)`,
    `CREATE INDEX photos_visible_ts ON photos (is_visible, upload_timestamp DESC)`,
    `CREATE TABLE uploads (
      id TEXT PRIMARY KEY,
      upload_key TEXT NOT NULL UNIQUE,
      session_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      total_size INTEGER NOT NULL,
      received_bytes INTEGER NOT NULL DEFAULT 0,
      temp_path TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'receiving' CHECK (status IN ('receiving','complete')),
      photo_id TEXT,
      duplicate INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`,
    `CREATE INDEX uploads_updated ON uploads (updated_at)`,
    `CREATE TABLE jobs (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type TEXT NOT NULL,
      photo_id TEXT REFERENCES photos (id) ON DELETE CASCADE,
      payload TEXT NOT NULL DEFAULT '{}',
      idempotency_key TEXT UNIQUE,
      status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL DEFAULT 3,
      run_after INTEGER NOT NULL,
      last_error TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    )`,
    `CREATE INDEX jobs_ready ON jobs (status, run_after)`,
    `CREATE TABLE events (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      type TEXT NOT NULL,
      data TEXT NOT NULL,
      created_at INTEGER NOT NULL
    )`,
  ];
  for (const s of statements) await sql.raw(s).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['events', 'jobs', 'uploads', 'photos', 'settings', 'activity', 'sessions', 'users']) {
    await sql.raw(`DROP TABLE IF EXISTS ${t}`).execute(db);
  }
}
