import type { LiveEventData } from '../../../common/api-types';
import type { GalleryItem, WallMessage } from '../../../common/api-types';

export interface LiveHandlers {
  visible(item: GalleryItem): void;
  hidden(id: string): void;
  /** A guestbook message became visible, or was hidden or deleted. */
  message(m: WallMessage): void;
  messageHidden(id: string): void;
  /** The couple paused or resumed the wall, drew or opened its curtain, changed its layout, or chose what it shows (`source`). */
  wallState(state: LiveEventData['wall-state']): void;
  /** From the couple's remote: next, previous, or a photo now. */
  command?(c: LiveEventData['wall-command']): void;
  /** A short text over the wall. */
  announce?(a: LiveEventData['wall-announce']): void;
  /** Sent by the server on every (re)connect; `resync` means the replay was incomplete. */
  ready(info: { resync: boolean }): void;
}

/**
 * GET /api/events through EventSource. The browser reconnects by itself and sends
 * Last-Event-ID; when it gives up for good (a proxy's error page while the server restarts),
 * a new EventSource is made after a delay, resuming from the last id seen.
 */
export class LiveEvents {
  private es: EventSource | null = null;
  private lastId = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly handlers: LiveHandlers,
    private readonly recreateMs = 5000,
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  /** A new connection now (a periodic refresh also covers a silently dead network path). */
  restart(): void {
    this.drop();
    if (!this.stopped) this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.drop();
  }

  private connect(): void {
    clearTimeout(this.timer);
    const url = this.lastId ? `${this.url}?lastEventId=${encodeURIComponent(this.lastId)}` : this.url;
    const es = new EventSource(url);
    for (const [type, listener] of this.listeners) es.addEventListener(type, listener);
    this.es = es;
  }

  private drop(): void {
    clearTimeout(this.timer);
    const es = this.es;
    if (!es) return;
    for (const [type, listener] of this.listeners) es.removeEventListener(type, listener);
    es.close();
    this.es = null;
  }

  private data(e: Event): unknown {
    const m = e as MessageEvent<string>;
    if (m.lastEventId) this.lastId = m.lastEventId;
    try {
      return JSON.parse(m.data);
    } catch {
      return null;
    }
  }

  private onVisible = (e: Event) => {
    const item = this.data(e) as LiveEventData['photo-visible'] | null;
    if (item && typeof item.id === 'string') this.handlers.visible(item);
  };

  private onHidden = (e: Event) => {
    const d = this.data(e) as Partial<LiveEventData['photo-hidden']> | null;
    if (d && typeof d.id === 'string') this.handlers.hidden(d.id);
  };

  private onMessage = (e: Event) => {
    const m = this.data(e) as LiveEventData['guestbook-visible'] | null;
    if (m && typeof m.id === 'string' && typeof m.message === 'string') this.handlers.message(m);
  };

  private onMessageHidden = (e: Event) => {
    const d = this.data(e) as Partial<LiveEventData['guestbook-hidden']> | null;
    if (d && typeof d.id === 'string') this.handlers.messageHidden(d.id);
  };

  private onWallState = (e: Event) => {
    const d = this.data(e) as Partial<LiveEventData['wall-state']> | null;
    if (d && typeof d.paused === 'boolean') this.handlers.wallState(d as LiveEventData['wall-state']);
  };

  private onCommand = (e: Event) => {
    const d = this.data(e) as Partial<LiveEventData['wall-command']> | null;
    if (d && typeof d.command === 'string') this.handlers.command?.(d as LiveEventData['wall-command']);
  };

  private onAnnounce = (e: Event) => {
    const d = this.data(e) as Partial<LiveEventData['wall-announce']> | null;
    if (d && typeof d.text === 'string' && typeof d.seconds === 'number') this.handlers.announce?.(d as LiveEventData['wall-announce']);
  };

  private onReady = (e: Event) => {
    const d = this.data(e) as { resync?: unknown } | null;
    this.handlers.ready({ resync: d?.resync === true });
  };

  private onError = () => {
    // CONNECTING: the browser is already retrying. CLOSED: it gave up, so start over later.
    if (this.es?.readyState !== EventSource.CLOSED || this.stopped) return;
    this.drop();
    this.timer = setTimeout(() => this.connect(), this.recreateMs);
  };

  /**
   * The events listened to, each with its listener: the same pairs are added on connect and
   * removed on drop. Declared after the listeners, which must exist first.
   */
  private readonly listeners: [string, (e: Event) => void][] = [
    ['photo-visible', this.onVisible],
    ['photo-hidden', this.onHidden],
    ['guestbook-visible', this.onMessage],
    ['guestbook-hidden', this.onMessageHidden],
    ['wall-state', this.onWallState],
    ['wall-command', this.onCommand],
    ['wall-announce', this.onAnnounce],
    ['ready', this.onReady],
    ['error', this.onError],
  ];
}
