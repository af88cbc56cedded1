import type { NotifyEvent } from '../../common/security-types.js';
import { log } from '../log.js';
import type { Message } from './channels.js';
import type { Clock } from './clock.js';
import { notifyText, type NotifyParams } from './notify-texts.js';

/** At most one message of a kind per this long (photos waiting, refused uploads ...). */
export const NOTIFY_EVERY_MS = 15 * 60_000;

/** Storage thresholds, as a share of the limit; a threshold is told again once use fell this much below it. */
const STORAGE_LEVELS = [
  { event: 'storage_95', at: 0.95 },
  { event: 'storage_80', at: 0.8 },
] as const;
const REARM_BELOW = 0.02;

/** A kind of message held to NOTIFY_EVERY_MS: when it last went out, and what is still to tell. */
interface Throttle {
  lastSent: number;
  scheduled: boolean;
  /** Something happened since the last message was prepared. */
  dirty: boolean;
  /** How the message is made when it goes out (null: nothing to tell any more). */
  compose: () => Promise<{ params: NotifyParams; path: string | null } | null>;
}

export interface NotifierDeps {
  clock: Clock;
  /** Hands a message to the channels (Outbox.send); may tell how many channels took it. */
  deliver(m: Message): void | number | Promise<number>;
  /** The site's address for links (PUBLIC_URL, else the last address an admin used), or null. */
  siteUrl(): string | null;
  /** "Emma & James", put before each title. */
  couple(): Promise<string>;
  /** The language messages are written in: the wedding's default_language (English when not given). */
  language?(): string;
}

/**
 * What the couple is told, and how often. Every kind of message goes out at once the first time,
 * then at most once per NOTIFY_EVERY_MS: what happens in between is gathered into the next one,
 * which says how many (photos waiting, uploads refused, files that failed), and is dropped when
 * nothing is left to tell (every waiting photo approved meanwhile).
 */
export class Notifier {
  private readonly throttles = new Map<string, Throttle>();
  private readonly toldTools = new Set<string>();
  private readonly storageTold = new Set<string>();
  private refused = 0;
  private failedFiles: string[] = [];
  private failedCount = 0;

  constructor(private readonly d: NotifierDeps) {}

  /** Something new waits for approval; `count` is read when the message goes out. */
  waiting(kind: 'photos' | 'messages', count: () => Promise<number>): void {
    const event = kind === 'photos' ? 'photos_waiting' : 'messages_waiting';
    const path = kind === 'photos' ? '/admin/photos?mode=queue' : '/admin/guestbook';
    this.throttled(event, async () => {
      const n = await count();
      return n > 0 ? { params: { count: n }, path } : null;
    });
  }

  /** An upload was refused for lack of space. */
  uploadRefused(): void {
    this.refused++;
    this.throttled('storage_full', async () => {
      const count = this.refused;
      this.refused = 0;
      return count > 0 ? { params: { count }, path: '/admin/dashboard' } : null;
    });
  }

  /** A file ended up "could not be processed". */
  processingFailed(filename: string): void {
    this.failedCount++;
    this.failedFiles.push(filename);
    this.throttled('processing_failed', async () => {
      const count = this.failedCount;
      const filename = this.failedFiles[0];
      this.failedCount = 0;
      this.failedFiles = [];
      return count > 0 ? { params: { count, filename }, path: '/admin/photos' } : null;
    });
  }

  /**
   * A tool the site needs could not be started: told once per tool while the server runs. Told
   * with no channel turned on (at start, before the couple set one up), it is told again the next
   * time a file needs the tool.
   */
  toolMissing(tool: string): void {
    if (this.toldTools.has(tool)) return;
    this.toldTools.add(tool);
    this.emit('tool_missing', { tool }, '/admin/dashboard').then(
      (channels) => {
        if (channels === 0) this.toldTools.delete(tool);
      },
      (e) => {
        this.toldTools.delete(tool);
        log.warn('Could not tell that a tool is missing', e);
      },
    );
  }

  /** Copying to the couple's bucket has failed for 15 minutes (told once until it works again). */
  offsiteFailing(problem: (lang: string) => string): void {
    const lang = this.d.language?.() ?? 'en';
    this.emit('offsite_failing', { problem: problem(lang) }, '/admin/settings').catch((e) => log.warn('Could not tell that the off-site copy is failing', e));
  }

  /** Storage in use against its limit: each threshold is told once as it is passed. */
  storage(used: number, limit: number, format: (bytes: number) => string): void {
    if (!(limit > 0)) return;
    const share = used / limit;
    for (const { event, at } of STORAGE_LEVELS) {
      if (share < at - REARM_BELOW) this.storageTold.delete(event);
    }
    const level = STORAGE_LEVELS.find((l) => share >= l.at);
    if (!level || this.storageTold.has(level.event)) return;
    // Passing 95% also covers 80%: one message, not two.
    for (const l of STORAGE_LEVELS) if (l.at <= level.at) this.storageTold.add(l.event);
    void this.emit(level.event, { percent: Math.floor(share * 100), used: format(used), limit: format(limit) }, '/admin/dashboard');
  }

  private throttled(event: NotifyEvent, compose: Throttle['compose']): void {
    let t = this.throttles.get(event);
    if (!t) {
      t = { lastSent: -Infinity, scheduled: false, dirty: false, compose };
      this.throttles.set(event, t);
    }
    t.compose = compose;
    t.dirty = true;
    this.schedule(event, t);
  }

  private schedule(event: NotifyEvent, t: Throttle): void {
    if (t.scheduled) return;
    t.scheduled = true;
    const wait = t.lastSent + NOTIFY_EVERY_MS - this.d.clock.now();
    const fire = () => void this.fire(event, t);
    if (wait <= 0) fire();
    else this.d.clock.after(wait, fire);
  }

  private async fire(event: NotifyEvent, t: Throttle): Promise<void> {
    t.dirty = false;
    try {
      const what = await t.compose();
      if (what) {
        t.lastSent = this.d.clock.now();
        await this.emit(event, what.params, what.path);
      }
    } catch (e) {
      log.warn(`Could not prepare the "${event}" notification`, e);
    } finally {
      t.scheduled = false;
      // Something happened while this one was being prepared: it goes into the next message.
      if (t.dirty) this.schedule(event, t);
    }
  }

  /** Resolves to how many channels took the message (unknown counts as one). */
  private async emit(event: NotifyEvent, params: NotifyParams, path: string | null): Promise<number> {
    const lang = this.d.language?.() ?? 'en';
    const { title, text } = notifyText(event, { ...params, couple: await this.d.couple() }, lang);
    const base = this.d.siteUrl();
    const took = await this.d.deliver({ event, title, text, lang, count: params.count ?? null, url: base && path ? base + path : null });
    return typeof took === 'number' ? took : 1;
  }
}
