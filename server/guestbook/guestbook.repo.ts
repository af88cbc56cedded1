import { sql, type Kysely, type Updateable } from 'kysely';
import type { DB, GuestbookRow, GuestbookTable, NewGuestbookRow } from '../db/schema.js';

/** Which messages an admin list shows: waiting (not visible), visible, or all. */
export type GuestbookFilter = 'pending' | 'visible' | 'all';

/** The guestbook table: its only writer, and every read of it but the export's. */
export class GuestbookRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Stores a message with what must exist with it (its activity, its voice note's job), written
   * through `alongside` in one transaction, unless its guest already wrote `limit` messages since
   * `sinceIso`: the count and the insert run in that transaction, so parallel posts cannot pass the
   * limit. Returns false (and stores nothing) when over the limit.
   */
  insertWithin(row: NewGuestbookRow, limit: { sinceIso: string; max: number }, alongside: (tx: Kysely<DB>) => Promise<void>): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const repo = new GuestbookRepo(tx);
      if (row.anonymous_address != null) {
        if ((await repo.recentByAddress(row.anonymous_address, limit.sinceIso)).count >= limit.max) return false;
      } else if (row.guest_id && (await repo.recentByGuest(row.guest_id, limit.sinceIso)).count >= limit.max) return false;
      await tx.insertInto('guestbook').values(row).execute();
      await alongside(tx);
      return true;
    });
  }

  get(id: string): Promise<GuestbookRow | undefined> {
    return this.db.selectFrom('guestbook').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** How many messages the guest wrote since `sinceIso`, and when the oldest of them was written. */
  async recentByGuest(guestId: string, sinceIso: string): Promise<{ count: number; oldest: string | null }> {
    const r = await this.db
      .selectFrom('guestbook')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string | null>('created_at').as('oldest')])
      .where('guest_id', '=', guestId)
      .where('created_at', '>=', sinceIso)
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), oldest: r.oldest };
  }

  /** How many messages came without a guest cookie from this address since `sinceIso`, and when the oldest did. */
  async recentByAddress(address: string, sinceIso: string): Promise<{ count: number; oldest: string | null }> {
    const r = await this.db
      .selectFrom('guestbook')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min<string | null>('created_at').as('oldest')])
      .where('anonymous_address', '=', address)
      .where('created_at', '>=', sinceIso)
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), oldest: r.oldest };
  }

  private filtered(filter: GuestbookFilter, guestId?: string) {
    let q = this.db.selectFrom('guestbook');
    if (guestId !== undefined) q = q.where('guest_id', '=', guestId);
    if (filter === 'visible') q = q.where('is_visible', '=', 1);
    if (filter === 'pending') q = q.where('is_visible', '=', 0);
    return q;
  }

  /** Newest first; `guestId`: only that guest's messages. */
  list(filter: GuestbookFilter, limit: number, offset: number, guestId?: string): Promise<GuestbookRow[]> {
    return this.filtered(filter, guestId).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async count(filter: GuestbookFilter, guestId?: string): Promise<number> {
    const r = await this.filtered(filter, guestId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Sets visibility; the row when it changed, undefined when it was so already or does not exist. */
  setVisible(id: string, visible: boolean, approvedAt: string): Promise<GuestbookRow | undefined> {
    return this.db
      .updateTable('guestbook')
      .set(visible ? { is_visible: 1, approved_at: sql<string>`coalesce(approved_at, ${approvedAt})` } : { is_visible: 0 })
      .where('id', '=', id)
      .where('is_visible', '=', visible ? 0 : 1)
      .returningAll()
      .executeTakeFirst();
  }

  /** What processing made of the voice note; false when the message is gone. */
  async updateAudio(id: string, patch: Updateable<GuestbookTable>): Promise<boolean> {
    const r = await this.db.updateTable('guestbook').set(patch).where('id', '=', id).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Deletes one message (with `guestId`: only if that guest wrote it); the row deleted. */
  delete(id: string, guestId?: string): Promise<GuestbookRow | undefined> {
    let q = this.db.deleteFrom('guestbook').where('id', '=', id);
    if (guestId !== undefined) q = q.where('guest_id', '=', guestId);
    return q.returningAll().executeTakeFirst();
  }
}
