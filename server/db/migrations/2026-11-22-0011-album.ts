import { sql, type Kysely } from 'kysely';

// Frozen: never import app code here.
// From thousands of photos to the album: guests' hearts (one row per guest and photo, and a count
// on the photo kept by the same write, so a gallery page never counts rows), the couple's
// highlights, and what processing measures of each image (a perceptual hash, sharpness, quality
// flags, the time it was taken) with the group of similar shots it belongs to.
const LISTED = `is_visible = 1 AND (display_path IS NOT NULL OR content_type NOT LIKE 'video/%')`;

export async function up(db: Kysely<any>): Promise<void> {
  const bump = `UPDATE gallery_version SET n = n + 1 WHERE id = 1`;
  for (const s of [
    `ALTER TABLE photos ADD COLUMN hearts INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE photos ADD COLUMN highlighted INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE photos ADD COLUMN phash TEXT`,
    `ALTER TABLE photos ADD COLUMN sharpness REAL`,
    `ALTER TABLE photos ADD COLUMN quality_flags TEXT`,
    `ALTER TABLE photos ADD COLUMN shot_at INTEGER`,
    `ALTER TABLE photos ADD COLUMN similar_group TEXT`,
    // Hidden by "Keep this, hide the rest": dealt with, so the approval queue no longer lists it.
    `ALTER TABLE photos ADD COLUMN set_aside INTEGER NOT NULL DEFAULT 0`,
    `CREATE TABLE hearts (
       photo_id TEXT NOT NULL REFERENCES photos(id) ON DELETE CASCADE,
       guest_id TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       PRIMARY KEY (photo_id, guest_id)
     ) WITHOUT ROWID`,
    // "Most loved": the listed photos by hearts, newest first among equals.
    `CREATE INDEX photos_loved_order ON photos (hearts DESC, upload_timestamp DESC, id DESC, is_visible, content_type, display_path) WHERE ${LISTED}`,
    `CREATE INDEX photos_highlight_order ON photos (upload_timestamp DESC, id DESC, is_visible, content_type, display_path, highlighted) WHERE ${LISTED} AND highlighted = 1`,
    `CREATE INDEX photos_shot_at ON photos (shot_at) WHERE phash IS NOT NULL`,
    `CREATE INDEX photos_similar_group ON photos (similar_group) WHERE similar_group IS NOT NULL`,
    // The gallery's pages stay cached while only a heart count or a similar-shots group moves:
    // those columns are written by statements of their own that change nothing else.
    `DROP TRIGGER photos_gallery_update`,
    `CREATE TRIGGER photos_gallery_update AFTER UPDATE ON photos
       WHEN (OLD.is_visible = 1 OR NEW.is_visible = 1) AND OLD.hearts IS NEW.hearts AND OLD.similar_group IS NEW.similar_group
       BEGIN ${bump}; END`,
  ]) {
    await sql.raw(s).execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const bump = `UPDATE gallery_version SET n = n + 1 WHERE id = 1`;
  for (const s of [
    `DROP TRIGGER IF EXISTS photos_gallery_update`,
    `CREATE TRIGGER photos_gallery_update AFTER UPDATE ON photos WHEN OLD.is_visible = 1 OR NEW.is_visible = 1 BEGIN ${bump}; END`,
    `DROP INDEX IF EXISTS photos_similar_group`,
    `DROP INDEX IF EXISTS photos_shot_at`,
    `DROP INDEX IF EXISTS photos_highlight_order`,
    `DROP INDEX IF EXISTS photos_loved_order`,
    `DROP TABLE IF EXISTS hearts`,
    ...['set_aside', 'similar_group', 'shot_at', 'quality_flags', 'sharpness', 'phash', 'highlighted', 'hearts'].map((c) => `ALTER TABLE photos DROP COLUMN ${c}`),
  ]) {
    await sql.raw(s).execute(db);
  }
}
