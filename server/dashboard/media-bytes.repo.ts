import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A photo whose derivatives have not been measured since their paths last changed. */
export interface Unmeasured {
  photo_id: string;
  thumb_path: string | null;
  display_path: string | null;
}

/** A measurement: the derivatives' bytes while the photo points at these paths. */
export interface Measured extends Unmeasured {
  bytes: number;
}

// A measurement counts only while the photo still points at the files that were measured.
const SAME_FILES = sql`m.photo_id = p.id AND m.thumb_path IS p.thumb_path AND m.display_path IS p.display_path`;

/** The media_bytes table (its only writer) and the sums the space in use is made of. */
export class MediaBytesRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Originals on this disk, measured derivatives, partial uploads and guestbook voice notes, in bytes, and up to `limit` photos whose
   * derivatives are not measured yet. One statement, so both come from the same moment: a photo
   * is either in the sum or in the list, never in both or neither.
   */
  async usage(limit: number): Promise<{ stored: number; unmeasured: Unmeasured[] }> {
    const r = await sql<Unmeasured & { stored: number | null }>`
      SELECT NULL AS photo_id, NULL AS thumb_path, NULL AS display_path,
        (SELECT coalesce(sum(p.file_size), 0) + coalesce(sum(m.bytes), 0) FROM photos p LEFT JOIN media_bytes m ON ${SAME_FILES})
        + (SELECT coalesce(sum(received_bytes), 0) FROM uploads WHERE status = 'receiving')
        + (SELECT coalesce(sum(audio_size), 0) + coalesce(sum(web_audio_size), 0) FROM guestbook)
        -- Originals the local disk gave up (the couple's bucket holds them) take no room here.
        - (SELECT coalesce(sum(p.file_size), 0) FROM offsite_objects o JOIN photos p ON p.stored_path = o.rel WHERE o.evicted = 1) AS stored
      UNION ALL
      SELECT * FROM (
        SELECT p.id, p.thumb_path, p.display_path, NULL FROM photos p LEFT JOIN media_bytes m ON ${SAME_FILES}
        WHERE m.photo_id IS NULL AND (p.thumb_path IS NOT NULL OR p.display_path IS NOT NULL)
        LIMIT ${limit})`.execute(this.db);
    const [head, ...rest] = r.rows;
    return {
      stored: Number(head?.stored ?? 0),
      unmeasured: rest.map(({ photo_id, thumb_path, display_path }) => ({ photo_id, thumb_path, display_path })),
    };
  }

  /** Records measurements in one statement; a photo deleted meanwhile records nothing (the insert joins photos). */
  async record(measured: Measured[]): Promise<void> {
    if (!measured.length) return;
    const rows = sql.join(measured.map((m) => sql`(${m.photo_id}, ${m.thumb_path}, ${m.display_path}, ${m.bytes})`));
    await sql`
      INSERT OR REPLACE INTO media_bytes (photo_id, thumb_path, display_path, bytes)
      SELECT p.id, v.column2, v.column3, v.column4 FROM (VALUES ${rows}) v JOIN photos p ON p.id = v.column1`.execute(this.db);
  }
}
