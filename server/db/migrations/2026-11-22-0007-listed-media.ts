import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// The public gallery lists a visible photo at once, but a visible video only once its web copy
// (display_path) exists. This index holds exactly the listed rows in gallery order, with the
// columns of that rule, so pages, anchors and the count read the index alone. The condition is
// the text of LISTED in server/photos/gallery.repo.ts, which names this index (INDEXED BY).
export async function up(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `CREATE INDEX photos_listed_order ON photos (upload_timestamp DESC, id DESC, is_visible, content_type, display_path)
       WHERE is_visible = 1 AND (display_path IS NOT NULL OR content_type NOT LIKE 'video/%')`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw(`DROP INDEX IF EXISTS photos_listed_order`).execute(db);
}
