import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// hearts_version: bumped whenever a photo's heart count changes, on any connection. The gallery's
// answers are kept ready (serialized) while neither it nor gallery_version moves, so a guest's
// page costs two small reads instead of a page's heart counts and its JSON each time.
export async function up(db: Kysely<any>): Promise<void> {
  for (const s of [
    `CREATE TABLE hearts_version (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL)`,
    `INSERT INTO hearts_version (id, n) VALUES (1, 0)`,
    `CREATE TRIGGER photos_hearts_moved AFTER UPDATE OF hearts ON photos WHEN OLD.hearts IS NOT NEW.hearts
       BEGIN UPDATE hearts_version SET n = n + 1 WHERE id = 1; END`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const s of [`DROP TRIGGER IF EXISTS photos_hearts_moved`, `DROP TABLE IF EXISTS hearts_version`]) {
    await sql.raw(s).execute(db);
  }
}
