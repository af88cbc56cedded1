import { EventEmitter } from 'node:events';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface BusEvent {
  id: number;
  type: 'photo-visible' | 'photo-hidden';
  data: unknown;
}

/**
 * Events for live screens (the reception wall). Each event is a row in SQLite, so a client
 * reconnecting with Last-Event-ID gets what it missed, then an in-process emit.
 * photo-visible carries the gallery item; photo-hidden carries {id}.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();

  constructor(private readonly db: Kysely<DB>) {
    this.emitter.setMaxListeners(0);
  }

  async publish(type: BusEvent['type'], data: unknown): Promise<BusEvent> {
    const row = await this.db
      .insertInto('events')
      .values({ type, data: JSON.stringify(data), created_at: Date.now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ev: BusEvent = { id: row.id, type, data };
    this.emitter.emit('event', ev);
    return ev;
  }

  photoVisible(item: { id: string }): Promise<BusEvent> {
    return this.publish('photo-visible', item);
  }

  photoHidden(id: string): Promise<BusEvent> {
    return this.publish('photo-hidden', { id });
  }

  /** Events after `lastId`, oldest first (for Last-Event-ID). */
  async since(lastId: number, limit = 500): Promise<BusEvent[]> {
    const rows = await this.db.selectFrom('events').selectAll().where('id', '>', lastId).orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: r.id, type: r.type as BusEvent['type'], data: JSON.parse(r.data) }));
  }

  /**
   * The oldest stored event id and the last id ever given (AUTOINCREMENT never reuses one, even
   * after a prune), 0 when none: lets a stream tell a reconnecting client it missed more than
   * can be replayed.
   */
  async bounds(): Promise<{ first: number; last: number }> {
    const first = await this.db.selectFrom('events').select((eb) => eb.fn.min<number | null>('id').as('id')).executeTakeFirst();
    const seq = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'events'`.execute(this.db);
    return { first: first?.id ?? 0, last: seq.rows[0]?.seq ?? 0 };
  }

  /** Live listeners, for checks that a closed stream let go of its subscription. */
  listenerCount(): number {
    return this.emitter.listenerCount('event');
  }

  subscribe(fn: (ev: BusEvent) => void): () => void {
    this.emitter.on('event', fn);
    return () => this.emitter.off('event', fn);
  }

  /** Keeps the table small: events older than a week are not needed for reconnects. */
  async prune(olderThanMs = 7 * 24 * 60 * 60 * 1000): Promise<void> {
    await this.db.deleteFrom('events').where('created_at', '<', Date.now() - olderThanMs).execute();
  }
}
