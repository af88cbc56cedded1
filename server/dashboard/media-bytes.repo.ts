import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A photo whose derivatives have not been measured since their paths last changed. */
export interface Unmeasured {
  photo_id: string;
  thumb_path: string | null;
  display_path: string | null;
}

// A measurement counts only while the photo still points at the files that were measured.
const SAME_FILES = sql`m.photo_id = p.id AND m.thumb_path IS p.thumb_path AND m.display_path IS p.display_path`;

/** The media_bytes table (its only writer) and the sums the space in use is made of. */
export class MediaBytesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Originals, measured derivatives and partial uploads, in bytes. */
  async storedBytes(): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT (SELECT coalesce(sum(p.file_size), 0) + coalesce(sum(m.bytes), 0) FROM photos p LEFT JOIN media_bytes m ON ${SAME_FILES})
        + (SELECT coalesce(sum(received_bytes), 0) FROM uploads WHERE status = 'receiving') AS n`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  async unmeasured(limit: number): Promise<Unmeasured[]> {
    const r = await sql<Unmeasured>`
      SELECT p.id AS photo_id, p.thumb_path, p.display_path FROM photos p LEFT JOIN media_bytes m ON ${SAME_FILES}
      WHERE m.photo_id IS NULL AND (p.thumb_path IS NOT NULL OR p.display_path IS NOT NULL)
      LIMIT ${limit}`.execute(this.db);
    return r.rows;
  }

  /** Records a measurement; a photo deleted meanwhile records nothing (the insert selects from photos). */
  async record(m: Unmeasured, bytes: number): Promise<void> {
    await sql`
      INSERT OR REPLACE INTO media_bytes (photo_id, thumb_path, display_path, bytes)
      SELECT id, ${m.thumb_path}, ${m.display_path}, ${bytes} FROM photos WHERE id = ${m.photo_id}`.execute(this.db);
  }
}
