import { openDatabase, type Sqlite } from '../db/open.js';

// All of the backup's SQL. Each step opens its own connection to a database file (the live
// one only to copy it), so the running server's connection and writers are never involved.

/** Children first (face_matches refers to face_guests). */
const FACE_TABLES = ['face_matches', 'face_boxes', 'face_guests'] as const;

const COUNTED_TABLES = ['users', 'photos', 'settings', 'activity', 'sessions', 'jobs', 'events', 'uploads', 'audit_log', 'passkeys', 'guestbook', 'keepsakes', 'keepsake_music'] as const;

/**
 * Copies the live database to `dest` with SQLite's online backup API: safe while the site
 * writes, since it reads through its own connection and never blocks the server's writers.
 */
export async function snapshotDatabase(liveFile: string, dest: string): Promise<void> {
  const live = openDatabase(liveFile, { fileMustExist: true });
  try {
    live.exec('PRAGMA busy_timeout = 5000');
    // All pages in one step: a step holds one read transaction, so the copy is one consistent
    // moment. Small steps would restart whenever an upload writes in between.
    await live.backup(dest, { progress: () => 0x7fffffff });
  } finally {
    live.close();
  }
}

export type DerivativeColumn = 'thumb_path' | 'display_path';

/** A derivative the copy names: a photo's thumbnail, display image or web copy. */
export interface NamedDerivative {
  id: string;
  column: DerivativeColumn;
  path: string;
}

/**
 * Lists the originals and derivatives the copy refers to. Partial chunked uploads are not
 * archived (media/incoming is left out), so their bookkeeping rows go: after a restore such a
 * client starts that file again instead of being told to resume bytes that are not there.
 */
export function prepareSnapshot(file: string): { photos: { id: string; path: string }[]; derivatives: NamedDerivative[] } {
  const db = openDatabase(file, { fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name),
    );
    if (!tables.has('photos') || !tables.has('users')) {
      throw new Error("The database has no photos or users table: is DATA_DIR the site's data folder?");
    }
    if (tables.has('uploads')) db.prepare(`DELETE FROM uploads WHERE status <> 'complete'`).run();
    // Live session ids would let whoever holds the archive act as a signed-in admin.
    if (tables.has('sessions')) db.prepare('DELETE FROM sessions').run();
    // Face codes, matches and boxes are never archived: the face search keeps them only for its
    // weeks, and a backup may outlive that. secure_delete overwrites the freed bytes.
    db.exec('PRAGMA secure_delete = ON');
    for (const t of FACE_TABLES) if (tables.has(t)) db.prepare(`DELETE FROM "${t}"`).run();
    const photos = db.prepare('SELECT id, stored_path AS path FROM photos ORDER BY upload_timestamp, id').all() as { id: string; path: string }[];
    return { photos, derivatives: namedDerivatives(db) };
  } finally {
    db.close();
  }
}

/** The voice-note files (as sent and playable copies) each guestbook message of a copy names; none before the guestbook existed. */
export function guestbookAudio(file: string): { id: string; path: string }[] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'guestbook'`).get()) return [];
    return db
      .prepare(`SELECT id, audio_path AS path FROM guestbook WHERE audio_path IS NOT NULL UNION ALL SELECT id, web_audio_path FROM guestbook WHERE web_audio_path IS NOT NULL`)
      .all() as { id: string; path: string }[];
  } finally {
    db.close();
  }
}

/**
 * Drops photos whose original was deleted between the snapshot and pinning (an admin deleted
 * them meanwhile), and guestbook messages whose voice note went the same way, so every row in
 * the archive has its files; then counts what is left and makes the copy one file without
 * -wal/-shm companions, so `tar xzf` alone gives a working folder.
 */
/** The files the keepsakes' rows name: each ready film or book, and the couple's music tracks. */
export function keepsakeFiles(file: string): { table: 'keepsakes' | 'keepsake_music'; id: string; path: string }[] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'keepsakes'`).get()) return [];
    return db
      .prepare(`SELECT 'keepsakes' AS "table", id, path FROM keepsakes WHERE path IS NOT NULL UNION ALL SELECT 'keepsake_music', id, path FROM keepsake_music`)
      .all() as { table: 'keepsakes' | 'keepsake_music'; id: string; path: string }[];
  } finally {
    db.close();
  }
}

export function sealSnapshot(file: string, dropPhotoIds: string[], rebuild: { id: string; column: DerivativeColumn }[] = [], dropMessageIds: string[] = [], dropKeepsakes: { table: 'keepsakes' | 'keepsake_music'; id: string }[] = []): Record<string, number> {
  const db = openDatabase(file, { fileMustExist: true });
  try {
    db.exec('PRAGMA foreign_keys = ON'); // jobs of a dropped photo go with it
    const drop = db.prepare('DELETE FROM photos WHERE id = ?');
    db.transaction(() => {
      dropPhotoIds.forEach((id) => drop.run(id));
      rebuildAfterRestore(db, rebuild);
      const dropMessage = db.prepare('DELETE FROM guestbook WHERE id = ?');
      dropMessageIds.forEach((id) => dropMessage.run(id));
      // A keepsake or track whose file is gone would be listed without one: it goes too.
      for (const k of dropKeepsakes) db.prepare(`DELETE FROM "${k.table}" WHERE id = ?`).run(k.id);
    })();
    const tables = new Set(
      (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((t) => t.name),
    );
    const counts: Record<string, number> = {};
    for (const t of COUNTED_TABLES) {
      if (tables.has(t)) counts[t] = (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
    }
    db.exec('PRAGMA journal_mode = DELETE');
    return counts;
  } finally {
    db.close();
  }
}

function namedDerivatives(db: Sqlite): NamedDerivative[] {
  return db
    .prepare(
      `SELECT id, 'thumb_path' AS "column", thumb_path AS path FROM photos WHERE thumb_path IS NOT NULL
       UNION ALL SELECT id, 'display_path', display_path FROM photos WHERE display_path IS NOT NULL`,
    )
    .all() as NamedDerivative[];
}

/**
 * A restore's database names derivatives the archive does not hold (an archive from before
 * backups checked them): they are made again at the site's first start. Returns how many photos.
 */
export function rebuildMissingDerivatives(file: string, held: (name: string) => boolean): number {
  const db = openDatabase(file, { fileMustExist: true });
  try {
    const lost = namedDerivatives(db).filter((d) => !held(d.path.replace(/\\/g, '/')));
    db.transaction(() => rebuildAfterRestore(db, lost))();
    return new Set(lost.map((d) => d.id)).size;
  } finally {
    db.close();
  }
}

/**
 * Derivatives the archive could not hold (replaced again and again while the backup ran): the
 * copy stops naming them and gets a processing job per photo, so the restored site makes them
 * again at its first start (a video without its web copy waits, unlisted, until it is re-made).
 */
function rebuildAfterRestore(db: Sqlite, rebuild: { id: string; column: DerivativeColumn }[]): void {
  const now = Date.now();
  for (const { id, column } of rebuild) db.prepare(`UPDATE photos SET ${column === 'thumb_path' ? 'thumb_path' : 'display_path'} = NULL WHERE id = ?`).run(id);
  for (const id of new Set(rebuild.map((r) => r.id))) {
    db.prepare(
      `INSERT INTO jobs (type, photo_id, payload, idempotency_key, max_attempts, run_after, created_at, updated_at)
       SELECT 'process-media', id, json_object('photoId', id), 'restore-rebuild:' || id || ':' || ?, 3, ?, ?, ? FROM photos WHERE id = ?`,
    ).run(now, now, now, now, id);
  }
}

/** Drops every session from a database being restored: everyone signs in again. */
export function clearSessions(file: string): void {
  const db = openDatabase(file, { fileMustExist: true });
  try {
    const has = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sessions'`).get();
    if (has) db.prepare('DELETE FROM sessions').run();
  } finally {
    db.close();
  }
}

/** Photo rows in a restored database, to check every original arrived. */
export function listOriginals(file: string): { id: string; path: string }[] {
  const db = openDatabase(file, { readonly: true, fileMustExist: true });
  try {
    const ok = db.prepare('PRAGMA quick_check').pluck().get();
    if (ok !== 'ok') throw new Error(`The database in the backup is damaged (${String(ok)})`);
    return db.prepare('SELECT id, stored_path AS path FROM photos').all() as { id: string; path: string }[];
  } finally {
    db.close();
  }
}
