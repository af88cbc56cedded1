import type { Kysely } from 'kysely';
import type { ChannelState, NotifyChannel, NotifySettings } from '../../common/security-types.js';
import type { DB } from '../db/schema.js';
import type { Message as Sentence } from '../../common/languages.js';
import { invalid, invalidAll } from '../errors.js';
import { log } from '../log.js';
import { parseNotify } from '../settings/notify-settings.js';
import type { SettingsService } from '../settings/settings.service.js';
import { configuredSenders, type Message } from './channels.js';
import { realClock, type Clock } from './clock.js';
import { NotificationsRepo } from './notifications.repo.js';
import { Notifier } from './notifier.js';
import { notifyText } from './notify-texts.js';
import { Outbox } from './outbox.js';

export interface NotificationsDeps {
  db: Kysely<DB>;
  settings: SettingsService;
  publicUrl: string | undefined;
  clock?: Clock;
  /** Stored media's bytes and their limit, checked once a minute against the 80% and 95% marks. */
  storage?: { used(): Promise<number>; limit(): Promise<number | null> };
  /** Per-try time limit (tests shorten it). */
  sendTimeoutMs?: number;
}

const gb = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GB`;
const STORAGE_CHECK_MS = 60_000;

/**
 * Telling the couple what needs them, through ntfy, a webhook and e-mail. Every feature reports
 * with one call (`waiting`, `uploadRefused`, `processingFailed`, `toolMissing`), which returns at
 * once; messages go out in the background, held to one per kind per 15 minutes, retried with
 * back-off, and never delay a request.
 */
export class NotificationsService {
  readonly notifier: Notifier;
  private readonly outbox: Outbox;
  private readonly repo: NotificationsRepo;
  private readonly clock: Clock;
  private cancelCheck: (() => void) | undefined;

  constructor(private readonly d: NotificationsDeps) {
    this.clock = d.clock ?? realClock;
    this.repo = new NotificationsRepo(d.db);
    this.outbox = new Outbox(async () => configuredSenders((await d.settings.get()).notify), this.clock, d.sendTimeoutMs);
    this.notifier = new Notifier({
      clock: this.clock,
      deliver: (m) => this.outbox.send(m),
      siteUrl: () => this.siteUrl(),
      couple: async () => (await d.settings.get()).couple_names.join(' & '),
      language: () => d.settings.defaultLanguage(),
    });
  }

  /**
   * Where links in messages point: PUBLIC_URL, else the address an admin saved the notification
   * settings from; never the Host of whatever request came last.
   */
  private siteUrl(): string | null {
    return this.d.publicUrl ?? this.d.settings.notifySiteUrl();
  }

  /** A photo finished processing: told when it now waits for approval. */
  async photoProcessed(photoId: string): Promise<void> {
    if ((await this.d.settings.get()).moderation !== 'manual') return;
    const p = await this.repo.photo(photoId);
    if (p && p.is_visible === 0 && p.status !== 'error') this.notifier.waiting('photos', () => this.repo.photosWaiting());
  }

  async photoFailed(photoId: string): Promise<void> {
    const p = await this.repo.photo(photoId);
    if (p) this.notifier.processingFailed(p.original_filename);
  }

  /** "Send a test": every channel in `body` (or, without one, in the settings), tried now. */
  async test(body: unknown): Promise<{ channel: NotifyChannel; ok: boolean; error: string | null }[]> {
    const stored = (await this.d.settings.get()).notify;
    let notify: NotifySettings = stored;
    if (body !== undefined && body !== null && (typeof body !== 'object' || Object.keys(body).length > 0)) {
      const problems: Sentence[] = [];
      notify = parseNotify(body, stored, problems) ?? stored;
      if (problems.length) throw invalidAll(problems);
    }
    const senders = configuredSenders(notify);
    if (senders.size === 0) throw invalid('errors.notify.none_configured');
    const couple = (await this.d.settings.get()).couple_names.join(' & ');
    const lang = this.d.settings.defaultLanguage();
    const { title, text } = notifyText('test', { couple }, lang);
    const base = this.siteUrl();
    const m: Message = { event: 'test', title, text, lang, count: null, url: base ? `${base}/admin/dashboard` : null };
    return this.outbox.test(m, senders);
  }

  /** The channels turned on and how each fares (the dashboard shows those that fail). */
  async states(): Promise<ChannelState[]> {
    return this.outbox.states(configuredSenders((await this.d.settings.get()).notify).keys());
  }

  private async checkStorage(): Promise<void> {
    const s = this.d.storage;
    if (!s) return;
    try {
      const [used, limit] = await Promise.all([s.used(), s.limit()]);
      if (limit) this.notifier.storage(used, limit, gb);
    } catch (e) {
      log.warn('Could not check the storage for notifications', e);
    }
  }

  start(): void {
    const loop = () => {
      void this.checkStorage().finally(() => {
        if (this.cancelCheck) this.cancelCheck = this.clock.after(STORAGE_CHECK_MS, loop);
      });
    };
    this.cancelCheck = () => undefined;
    loop();
  }

  stop(): void {
    this.cancelCheck?.();
    this.cancelCheck = undefined;
    this.outbox.stop();
  }
}
