import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** The hearts table (written only here): one row per guest and photo. */
export class HeartsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** True when the heart is new (a guest's second heart on a photo changes nothing). */
  async add(photoId: string, guestId: string): Promise<boolean> {
    const r = await this.db
      .insertInto('hearts')
      .values({ photo_id: photoId, guest_id: guestId, created_at: Date.now() })
      .onConflict((oc) => oc.columns(['photo_id', 'guest_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  /** True when there was a heart to take back. */
  async remove(photoId: string, guestId: string): Promise<boolean> {
    const r = await this.db.deleteFrom('hearts').where('photo_id', '=', photoId).where('guest_id', '=', guestId).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
