import type { Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.js';

/** The columns a guest's own list shows. */
export type MyUploadRow = Pick<
  PhotoRow,
  'id' | 'original_filename' | 'content_type' | 'status' | 'is_visible' | 'thumb_path' | 'derivative_version' | 'upload_timestamp' | 'uploader_name'
>;

/** Reads of photos by who sent them (photos.repo.ts is the table's writer). */
export class GuestsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** One guest's uploads, hidden ones included, newest first. */
  listByGuest(guestId: string, limit: number, offset: number): Promise<MyUploadRow[]> {
    return this.db
      .selectFrom('photos')
      .select(['id', 'original_filename', 'content_type', 'status', 'is_visible', 'thumb_path', 'derivative_version', 'upload_timestamp', 'uploader_name'])
      .where('guest_id', '=', guestId)
      .orderBy('upload_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countByGuest(guestId: string): Promise<number> {
    const r = await this.db
      .selectFrom('photos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('guest_id', '=', guestId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
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
