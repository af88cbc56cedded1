import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** One event for live screens: photo-visible carries the gallery item, photo-hidden carries {id}; the same for guestbook messages. */
export interface BusEvent {
  /** The stored row's id; 0 for a passing event (`passing`), which has none. */
  id: number;
  /** Told to the streams open now and never stored: the remote's commands and announcements. */
  passing?: true;
  type: 'photo-visible' | 'photo-hidden' | 'wall-state' | 'wall-command' | 'wall-announce' | 'guestbook-visible' | 'guestbook-hidden';
  data: unknown;
}

/** The events table (written only here): one row per published event, kept for reconnects. */
export class EventsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Stores an event and returns its id. */
  async insert(type: BusEvent['type'], data: unknown, createdAt = Date.now()): Promise<number> {
    const row = await this.db
      .insertInto('events')
      .values({ type, data: JSON.stringify(data), created_at: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Events after `lastId`, oldest first. `current` is false for a photo-visible (guestbook-visible)
   * event whose photo (message) is no longer visible (hidden or deleted since): a replay must not
   * show it again. The remote's commands and announcements are for the walls open when they were
   * given: a wall that reconnects later never replays them.
   */
  async since(lastId: number, limit: number): Promise<(BusEvent & { current: boolean })[]> {
    const rows = await this.db
      .selectFrom('events as e')
      .selectAll('e')
      .select(
        sql<number>`CASE e.type
          WHEN 'photo-visible' THEN EXISTS (SELECT 1 FROM photos p WHERE p.id = json_extract(e.data, '$.id') AND p.is_visible = 1)
          WHEN 'guestbook-visible' THEN EXISTS (SELECT 1 FROM guestbook g WHERE g.id = json_extract(e.data, '$.id') AND g.is_visible = 1)
          WHEN 'wall-command' THEN 0
          WHEN 'wall-announce' THEN 0
          ELSE 1 END`.as('current'),
      )
      .where('e.id', '>', lastId)
      .orderBy('e.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, type: r.type as BusEvent['type'], data: JSON.parse(r.data), current: r.current === 1 }));
  }

  /** The oldest stored id, and the last id ever given (AUTOINCREMENT never reuses one); 0 when none. */
  async bounds(): Promise<{ first: number; last: number }> {
    const first = await this.db.selectFrom('events').select((eb) => eb.fn.min<number | null>('id').as('id')).executeTakeFirst();
    const seq = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'events'`.execute(this.db);
    return { first: first?.id ?? 0, last: seq.rows[0]?.seq ?? 0 };
  }

  async deleteOlderThan(cutoffMs: number): Promise<void> {
    await this.db.deleteFrom('events').where('created_at', '<', cutoffMs).execute();
  }
}
