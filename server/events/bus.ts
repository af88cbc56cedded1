import { EventEmitter } from 'node:events';
import type { Kysely } from 'kysely';
import type { LiveEventData, WallSource } from '../../common/api-types.js';
import type { DB } from '../db/schema.js';
import { EventsRepo, type BusEvent } from './events.repo.js';

export type { BusEvent };

/**
 * Events for live screens (the reception wall). Each event is a row in SQLite, so a client
 * reconnecting with Last-Event-ID gets what it missed, then an in-process emit.
 * photo-visible carries the gallery item; photo-hidden carries {id}; guestbook-visible and
 * guestbook-hidden do the same for guestbook messages.
 */
export class EventBus {
  private readonly emitter = new EventEmitter();
  private readonly repo: EventsRepo;

  constructor(db: Kysely<DB>) {
    this.repo = new EventsRepo(db);
    this.emitter.setMaxListeners(0);
  }

  async publish(type: BusEvent['type'], data: unknown): Promise<BusEvent> {
    const ev: BusEvent = { id: await this.repo.insert(type, data), type, data };
    this.emitter.emit('event', ev);
    return ev;
  }

  photoVisible(item: { id: string }): Promise<BusEvent> {
    return this.publish('photo-visible', item);
  }

  photoHidden(id: string): Promise<BusEvent> {
    return this.publish('photo-hidden', { id });
  }

  /** A guestbook message the wall shows as a slide of its own (its words and name, no sound). */
  guestbookVisible(message: { id: string; name: string | null; message: string; created_at: string }): Promise<BusEvent> {
    return this.publish('guestbook-visible', message);
  }

  guestbookHidden(id: string): Promise<BusEvent> {
    return this.publish('guestbook-hidden', { id });
  }

  /** The couple paused or resumed the wall, drew or opened its curtain, changed its layout, or chose what it shows (`source`). */
  wallState(state: { paused: boolean; blank: boolean; layout: LiveEventData['wall-state']['layout'] }, source?: WallSource): Promise<BusEvent> {
    return this.publish('wall-state', source ? { ...state, source } : state);
  }

  /**
   * An event for the streams open now that no reconnect replays: it is not stored, so it never
   * waits behind the database's writes (under an upload rush those queue for seconds).
   */
  pass(type: BusEvent['type'], data: unknown): BusEvent {
    const ev: BusEvent = { id: 0, type, data, passing: true };
    this.emitter.emit('event', ev);
    return ev;
  }

  /** Next, previous or a photo now, from the couple's remote: for the walls open now, never replayed. */
  async wallCommand(command: LiveEventData['wall-command']): Promise<BusEvent> {
    return this.pass('wall-command', command);
  }

  /** A short text over the wall, for the walls open now (never replayed). */
  async wallAnnounce(announcement: LiveEventData['wall-announce']): Promise<BusEvent> {
    return this.pass('wall-announce', announcement);
  }

  /** Events after `lastId`, oldest first (for Last-Event-ID); `current` false: a photo-visible no longer true. */
  since(lastId: number, limit = 500): Promise<(BusEvent & { current: boolean })[]> {
    return this.repo.since(lastId, limit);
  }

  /**
   * The oldest stored event id and the last id ever given, 0 when none: lets a stream tell a
   * reconnecting client it missed more than can be replayed (ids survive a prune).
   */
  bounds(): Promise<{ first: number; last: number }> {
    return this.repo.bounds();
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
  prune(olderThanMs = 7 * 24 * 60 * 60 * 1000): Promise<void> {
    return this.repo.deleteOlderThan(Date.now() - olderThanMs);
  }
}
