import { AppError } from '../errors.js';
import { log } from '../log.js';
import type { BusEvent, EventBus } from './bus.js';

/** Where a live screen's events go: an open event stream, seen without its transport. */
export interface EventSink {
  /** Throws when the connection can no longer be written. */
  send(ev: { id: number; type: string; data: unknown; passing?: boolean }): void;
  end(): void;
  destroy(): void;
  onClose(fn: () => void): void;
}

export interface EventStreamsOptions {
  /** A client that missed more than this is told to reload its list instead of replaying. */
  maxReplay?: number;
  /** Open streams one client address may hold; more are refused (429). */
  maxPerAddress?: number;
  /** Open streams in all, server-wide; more are refused (503, Retry-After). */
  maxTotal?: number;
  /** Whether an event goes out to the walls at all (what the couple chose them to show). */
  shows?: (ev: BusEvent) => boolean;
}

const TOO_MANY_STREAMS = 'errors.events.too_many_streams';

const REPLAY_BATCH = 500;
/** Seconds a screen refused by the server-wide cap waits (the wall starts over after its own delay). */
const FULL_RETRY_AFTER_S = 30;

/**
 * The live screens' feed. On connect it subscribes first and buffers, then replays what the
 * client missed, then sends `ready` ({last_event_id, resync}) and whatever arrived meanwhile,
 * so nothing falls between replay and live. `resync: true` means the replay could not be
 * complete (events pruned, a different database, too many missed): the client reloads its list.
 */
export class EventStreams {
  private readonly open = new Set<EventSink>();
  private readonly maxReplay: number;
  private readonly maxPerAddress: number;
  private readonly maxTotal: number;
  private readonly perAddress = new Map<string, number>();
  private admitted = 0;
  private readonly shows: (ev: BusEvent) => boolean;

  constructor(
    private readonly bus: EventBus,
    opts: EventStreamsOptions = {},
  ) {
    this.maxReplay = opts.maxReplay ?? 2_000;
    this.maxPerAddress = opts.maxPerAddress ?? 10;
    this.maxTotal = opts.maxTotal ?? 500;
    this.shows = opts.shows ?? (() => true);
  }

  /**
   * Takes one of the address's stream slots before a stream opens (rate_limited when all are
   * taken, unavailable when the server holds all it takes); the returned function gives it back
   * and may be called more than once.
   */
  admit(address: string): () => void {
    if (this.admitted >= this.maxTotal) throw new AppError('unavailable', 'errors.events.too_many_screens', undefined, { retry_after: FULL_RETRY_AFTER_S });
    const held = this.perAddress.get(address) ?? 0;
    if (held >= this.maxPerAddress) throw new AppError('rate_limited', TOO_MANY_STREAMS, undefined, { retry_after: 30 });
    this.perAddress.set(address, held + 1);
    this.admitted++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.admitted--;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    };
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every stream (shutdown): browsers reconnect on their own once the server is back. */
  closeAll(): void {
    for (const sink of this.open) sink.end();
    this.open.clear();
  }

  /** Feeds `sink` from `given` (the client's last event id, if it sent one) until it closes. */
  async connect(sink: EventSink, given: number | undefined): Promise<void> {
    let lastSent = 0;
    let replaying = true;
    let closed = false;
    const pending: BusEvent[] = [];
    const send = (ev: BusEvent) => {
      if (closed) return;
      if (!ev.passing) {
        if (ev.id <= lastSent) return;
        lastSent = ev.id;
      }
      if (!this.shows(ev)) return;
      try {
        sink.send(ev);
      } catch (err) {
        // Runs inside bus.publish: a broken connection must never fail the approval that published.
        log.warn('Dropping a wall stream that could not be written', err);
        cleanup();
        sink.destroy();
      }
    };
    const unsubscribe = this.bus.subscribe((ev) => (replaying ? pending.push(ev) : send(ev)));
    const cleanup = () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      this.open.delete(sink);
    };
    sink.onClose(cleanup);
    this.open.add(sink);

    try {
      const { first, last } = await this.bus.bounds();
      // Whatever was published after we subscribed is news to this client even if its id is <= last.
      const stored = pending.find((ev) => !ev.passing);
      const fresh = stored ? Math.min(last, stored.id - 1) : last;
      let resync = false;
      if (given === undefined) {
        lastSent = fresh;
      } else if (given > last || given < (first || last + 1) - 1) {
        // A different database, or events it missed were pruned: replaying would leave gaps.
        resync = true;
        lastSent = fresh;
      } else {
        lastSent = given;
        let replayed = 0;
        for (;;) {
          const batch = await this.bus.since(lastSent, REPLAY_BATCH);
          if (closed) return;
          // A photo shown and hidden again while the screen was away is not shown now.
          for (const ev of batch) {
            if (ev.current) send({ id: ev.id, type: ev.type, data: ev.data });
            else lastSent = Math.max(lastSent, ev.id);
          }
          replayed += batch.length;
          if (batch.length < REPLAY_BATCH) break;
          if (replayed >= this.maxReplay) {
            resync = true;
            break;
          }
        }
        if (resync) lastSent = Math.max(lastSent, fresh);
      }
      if (closed) return;
      sink.send({ id: lastSent, type: 'ready', data: { last_event_id: lastSent, resync } });
      replaying = false;
      for (const ev of pending.splice(0)) send(ev);
    } catch (err) {
      log.error('The event stream could not start', err);
      cleanup();
      sink.end();
    }
  }
}
