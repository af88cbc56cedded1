import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// A counter that moves whenever a visible photo is added, changed or removed (by this server or any
// other connection). Gallery reads keep their pages in memory until it moves, so hidden uploads and
// their processing, sessions, jobs and events never throw the guests' pages away.
export async function up(db: Kysely<any>): Promise<void> {
  const bump = `UPDATE gallery_version SET n = n + 1 WHERE id = 1`;
  for (const s of [
    `CREATE TABLE gallery_version (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
    `INSERT INTO gallery_version (id, n) VALUES (1, 0)`,
    `CREATE TRIGGER photos_gallery_insert AFTER INSERT ON photos WHEN NEW.is_visible = 1 BEGIN ${bump}; END`,
    `CREATE TRIGGER photos_gallery_delete AFTER DELETE ON photos WHEN OLD.is_visible = 1 BEGIN ${bump}; END`,
    `CREATE TRIGGER photos_gallery_update AFTER UPDATE ON photos WHEN OLD.is_visible = 1 OR NEW.is_visible = 1 BEGIN ${bump}; END`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [
    `DROP TRIGGER IF EXISTS photos_gallery_update`,
    `DROP TRIGGER IF EXISTS photos_gallery_delete`,
    `DROP TRIGGER IF EXISTS photos_gallery_insert`,
    `DROP TABLE IF EXISTS gallery_version`,
  ]) {
    await sql.raw(s).execute(db);
  }
}
