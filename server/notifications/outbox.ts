import type { ChannelState, NotifyChannel } from '../../common/security-types.js';
import { log } from '../log.js';
import type { Message, Sender } from './channels.js';
import type { Clock } from './clock.js';

/** Waits before each retry of a failed message: about 2 hours in all, then it is given up. */
export const RETRY_AFTER_MS = [30_000, 2 * 60_000, 10 * 60_000, 30 * 60_000, 60 * 60_000];
/** One try never takes longer: a receiver that never answers holds nothing up. */
export const SEND_TIMEOUT_MS = 15_000;
/** Messages kept per channel while it fails; the oldest go first beyond it. */
const MAX_QUEUED = 50;

interface Queued {
  message: Message;
  tries: number;
  /** When it may be tried (again). */
  at: number;
}

interface Lane {
  queue: Queued[];
  busy: boolean;
  cancelWake?: () => void;
  state: ChannelState;
}

/**
 * Delivers messages to each channel in the background, one at a time per channel, retrying with
 * back-off. `send` returns at once, so no request ever waits for a receiver. The state of every
 * channel (last error, messages waiting for a retry) is what the dashboard shows.
 */
export class Outbox {
  private readonly lanes = new Map<NotifyChannel, Lane>();
  private stopped = false;

  constructor(
    /** The channels the settings turn on now. */
    private readonly senders: () => Promise<Map<NotifyChannel, Sender>>,
    private readonly clock: Clock,
    private readonly timeoutMs = SEND_TIMEOUT_MS,
  ) {}

  private lane(channel: NotifyChannel): Lane {
    let l = this.lanes.get(channel);
    if (!l) {
      l = { queue: [], busy: false, state: { channel, ok: true, last_error: null, last_error_at: null, last_sent_at: null, retrying: 0 } };
      this.lanes.set(channel, l);
    }
    return l;
  }

  /** Queues `m` for every channel turned on; never waits for a receiver. Resolves to how many channels took it. */
  send(m: Message): Promise<number> {
    return this.senders().then(
      (senders) => {
        for (const channel of senders.keys()) {
          const l = this.lane(channel);
          l.queue.push({ message: m, tries: 0, at: this.clock.now() });
          if (l.queue.length > MAX_QUEUED) l.queue.shift();
          this.pump(channel);
        }
        return senders.size;
      },
      (e) => {
        log.warn('Could not read the notification settings', e);
        return 0;
      },
    );
  }

  /** Tries every channel now with `m` and says how each went (the "Send a test" button). */
  async test(m: Message, senders: Map<NotifyChannel, Sender>): Promise<{ channel: NotifyChannel; ok: boolean; error: string | null }[]> {
    return Promise.all(
      [...senders].map(async ([channel, send]) => {
        try {
          await send(m, this.timeoutMs);
          this.succeeded(this.lane(channel));
          return { channel, ok: true, error: null };
        } catch (e) {
          const error = (e as Error).message;
          this.failedOnce(this.lane(channel), error);
          return { channel, ok: false, error };
        }
      }),
    );
  }

  /** Channels configured or used since the start, with how they fare. */
  states(configured: Iterable<NotifyChannel>): ChannelState[] {
    return [...configured].map((c) => ({ ...this.lane(c).state, retrying: this.lane(c).queue.filter((q) => q.tries > 0).length }));
  }

  private succeeded(l: Lane): void {
    l.state = { ...l.state, ok: true, last_sent_at: new Date(this.clock.now()).toISOString() };
  }

  private failedOnce(l: Lane, error: string): void {
    l.state = { ...l.state, ok: false, last_error: error, last_error_at: new Date(this.clock.now()).toISOString() };
  }

  /**
   * Sends what is due on `channel`, one message at a time, oldest first; then sleeps until the next
   * retry is due. A message waiting for its retry never holds back a newer one.
   */
  private pump(channel: NotifyChannel): void {
    const l = this.lane(channel);
    if (l.busy || this.stopped) return;
    l.cancelWake?.();
    l.cancelWake = undefined;
    if (!l.queue.length) return;
    const now = this.clock.now();
    const due = l.queue.find((q) => q.at <= now);
    if (!due) {
      const next = Math.min(...l.queue.map((q) => q.at));
      l.cancelWake = this.clock.after(next - now, () => this.pump(channel));
      return;
    }
    l.busy = true;
    void this.deliver(channel, l, due).finally(() => {
      l.busy = false;
      this.pump(channel);
    });
  }

  private async deliver(channel: NotifyChannel, l: Lane, q: Queued): Promise<void> {
    const send = (await this.senders().catch(() => undefined))?.get(channel);
    if (!send) {
      l.queue = []; // the channel was turned off
      return;
    }
    try {
      await send(q.message, this.timeoutMs);
      l.queue.splice(l.queue.indexOf(q), 1);
      this.succeeded(l);
    } catch (e) {
      const error = (e as Error).message;
      this.failedOnce(l, error);
      q.tries++;
      if (q.tries > RETRY_AFTER_MS.length) {
        l.queue.splice(l.queue.indexOf(q), 1);
        log.warn(`A notification by ${channel} was given up after ${q.tries} tries: ${error}`);
      } else {
        q.at = this.clock.now() + RETRY_AFTER_MS[q.tries - 1];
        log.warn(`A notification by ${channel} failed (${error}); trying again later`);
      }
    }
  }

  stop(): void {
    this.stopped = true;
    for (const l of this.lanes.values()) l.cancelWake?.();
  }
}
