import { sql, type Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.js';

/** The columns a guest's own list shows. */
export type MyUploadRow = Pick<
  PhotoRow,
  'id' | 'original_filename' | 'content_type' | 'status' | 'is_visible' | 'thumb_path' | 'derivative_version' | 'upload_timestamp' | 'uploader_name'
>;

/** Reads of photos by who sent them (photos.repo.ts is the table's writer). */
export class GuestsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * One guest's uploads, hidden ones included, newest first: the photos they sent, and those
   * whose bytes they sent again (answered "duplicate"), with the name they gave and their time.
   */
  listByGuest(guestId: string, limit: number, offset: number): Promise<MyUploadRow[]> {
    return this.db
      .selectFrom('photos')
      .leftJoin('photo_owners as o', (j) => j.onRef('o.photo_id', '=', 'photos.id').on('o.guest_id', '=', guestId))
      .select(['photos.id', 'original_filename', 'content_type', 'status', 'is_visible', 'thumb_path', 'derivative_version', 'upload_timestamp'])
      .select(sql<string | null>`CASE WHEN o.guest_id IS NULL THEN photos.uploader_name ELSE o.uploader_name END`.as('uploader_name'))
      .where((eb) => eb.or([eb('photos.guest_id', '=', guestId), eb('o.guest_id', 'is not', null)]))
      .orderBy(sql`coalesce(o.added_at, photos.upload_timestamp)`, 'desc')
      .orderBy('photos.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countByGuest(guestId: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM photos WHERE guest_id = ${guestId})
           + (SELECT count(*) FROM photo_owners WHERE guest_id = ${guestId}) AS n`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** Every name guests gave, with how many photos carry it: most first, then by name. */
  async uploaders(limit?: number): Promise<{ name: string; count: number }[]> {
    let q = this.db
      .selectFrom('photos')
      .select((eb) => ['uploader_name', eb.fn.countAll<number>().as('n')])
      .where('uploader_name', 'is not', null)
      .groupBy('uploader_name')
      .orderBy('n', 'desc')
      .orderBy('uploader_name');
    if (limit !== undefined) q = q.limit(limit);
    const rows = await q.execute();
    return rows.map((r) => ({ name: r.uploader_name!, count: Number(r.n) }));
  }
}
