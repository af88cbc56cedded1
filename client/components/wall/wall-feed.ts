import type { LiveEventData } from '../../../common/api-types';
import { LiveEvents } from './live-events';
import type { WallPlayer } from './player';
import { isMessage, messageItem, messageSlideId, type WallItem } from './types';
import { loadWall } from './wall-api';

type Change = { add: WallItem } | { remove: string };

export interface FeedOptions {
  max: number;
  /** The list is reloaded this often: it heals anything a dropped connection could have missed. */
  refreshMs: number;
  /** A photo approved before its display image exists is looked for again this often... */
  mediaRetryMs: number;
  /** ...this many times. */
  mediaRetries: number;
  /** The wall's pause, curtain and layout, as the stream reports them. */
  onWallState?(state: LiveEventData['wall-state']): void;
  /** The remote's next, previous and "show this photo now". */
  onCommand?(c: LiveEventData['wall-command']): void;
  onAnnounce?(a: LiveEventData['wall-announce']): void;
  /** The list changed (loaded, or an arrival). */
  onChange?(): void;
  /** A photo or message was hidden or deleted. */
  onRemove?(id: string): void;
  /** After a reconnect that may have missed events: the pause is looked up again. */
  onResync?(): void;
}

/**
 * Feeds the player: the list from GET /api/photos and GET /api/guestbook (messages are slides
 * of their own between the photos), then changes from GET /api/events. The first
 * load waits for the stream's `ready`, so nothing falls between the two; changes arriving during
 * any load are applied after it, so the list cannot undo them.
 */
export class WallFeed {
  private readonly live: LiveEvents;
  private loading: Promise<void> | null = null;
  private buffered: Change[] | null = null;
  private first = true;
  private stopped = false;
  private timers: ReturnType<typeof setTimeout>[] = [];
  private refresh: ReturnType<typeof setInterval> | undefined;
  /** Visible photos still without a display image (processing): retried until they have one. */
  private waiting = new Set<string>();
  private mediaTimer: ReturnType<typeof setTimeout> | undefined;
  private mediaTries = 0;
  private source: string | undefined;

  constructor(
    private readonly player: WallPlayer,
    private readonly opts: FeedOptions,
  ) {
    this.live = new LiveEvents('/api/events', {
      visible: (item) => this.handle({ add: item }),
      hidden: (id) => this.handle({ remove: id }),
      message: (m) => this.handle({ add: messageItem(m) }),
      messageHidden: (id) => this.handle({ remove: messageSlideId(id) }),
      command: (c) => this.opts.onCommand?.(c),
      announce: (a) => this.opts.onAnnounce?.(a),
      wallState: (state) => {
        const { source } = state;
        this.opts.onWallState?.(state);
        // All photos or only the highlights: the server's list follows the setting, so load it again.
        if (source !== undefined && source !== this.source) {
          this.source = source;
          if (!this.first) void this.reload();
        }
      },
      ready: ({ resync }) => {
        if (resync) this.opts.onResync?.();
        if (this.first || resync) void this.reload();
        this.first = false;
      },
    });
  }

  start(): void {
    this.live.start();
    // Should the stream be slow to open (a buffering proxy), show the photos anyway.
    this.timers.push(setTimeout(() => this.first && void this.reload(), 3000));
    this.refresh = setInterval(() => {
      void this.reload();
      this.live.restart();
    }, this.opts.refreshMs);
  }

  stop(): void {
    this.stopped = true;
    this.live.stop();
    this.timers.forEach(clearTimeout);
    clearInterval(this.refresh);
    clearTimeout(this.mediaTimer);
  }

  reload(): Promise<void> {
    if (this.loading) return this.loading;
    this.buffered = [];
    this.loading = loadWall(this.opts.max)
      .then((items) => {
        if (this.stopped) return;
        this.player.setItems(items);
        // Approved while still processing: now that it can be shown, it goes up next like any arrival.
        for (const i of items) if (this.waiting.delete(i.id)) this.player.add(i);
        this.opts.onChange?.();
      })
      .catch((err) => console.error('Could not load the photos for the wall', err))
      .finally(() => {
        const later = this.buffered ?? [];
        this.buffered = null;
        this.loading = null;
        if (!this.stopped) later.forEach((c) => this.apply(c));
      });
    return this.loading;
  }

  private handle(c: Change): void {
    if (this.buffered) this.buffered.push(c);
    else this.apply(c);
  }

  private apply(c: Change): void {
    if ('remove' in c) {
      this.waiting.delete(c.remove);
      this.player.remove(c.remove);
      this.opts.onRemove?.(c.remove);
    } else if (isMessage(c.add) || c.add.backblaze_url) {
      this.waiting.delete(c.add.id);
      this.player.add(c.add);
      this.opts.onChange?.();
    } else if (this.waiting.size < 100) {
      this.waiting.add(c.add.id);
      this.mediaTries = 0;
      this.retryMedia();
    }
  }

  private retryMedia(): void {
    if (this.mediaTimer || this.stopped) return;
    this.mediaTimer = setTimeout(() => {
      this.mediaTimer = undefined;
      void this.reload().then(() => {
        if (this.waiting.size && ++this.mediaTries < this.opts.mediaRetries) this.retryMedia();
        else this.waiting.clear();
      });
    }, this.opts.mediaRetryMs);
  }
}
