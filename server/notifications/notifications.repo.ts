import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** What the notifications read from the photos: how many wait for approval, a file's name. */
export class NotificationsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Hidden photos that can be approved (not those that failed processing). */
  async photosWaiting(): Promise<number> {
    const r = await this.db
      .selectFrom('photos')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('is_visible', '=', 0)
      .where('status', '<>', 'error')
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async photo(id: string): Promise<{ original_filename: string; is_visible: number; status: string } | undefined> {
    return this.db.selectFrom('photos').select(['original_filename', 'is_visible', 'status']).where('id', '=', id).executeTakeFirst();
  }
}
