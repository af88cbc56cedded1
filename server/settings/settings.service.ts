import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { msg, type Message } from '../../common/languages.js';
import { invalid, invalidAll } from '../errors.js';
import { isShipped, SHIPPED } from '../i18n/messages.js';
import { maskNotify, parseNotify } from './notify-settings.js';
import { ADMIN_ONLY_KEYS, defaultSettings, type ScheduleItem, type SiteSettings, type WeddingSettings } from './settings.defaults.js';
import { SettingsRepo } from './settings.repo.js';
import { checkWindows, CONTROL_KEYS, parseControls, parseWindow } from './controls.js';
import { parseTranslations } from './translations.js';
import { parseChallenges } from './challenges.js';
import { FACE_KEYS, parseFaceSettings, resolveFaceSettings } from './face-settings.js';
import { coverUrl, LOOK_KEYS, parseLook } from './look.js';
import { CAMERA_KEYS, parseCameraSettings } from './camera-settings.js';

/** Whether a photo may be the cover (it exists, is an image and guests can see it). */
export type CoverCheck = (photoId: string) => Promise<boolean>;

/** Told of every saved change (the wall's pause reaches open walls this way). */
export type SettingsListener = (next: SiteSettings, previous: SiteSettings) => void | Promise<void>;

const SCHEDULE_FIELDS: (keyof ScheduleItem)[] = ['title', 'day', 'time', 'venue', 'location', 'attire', 'attendance', 'description'];

/** The single settings record, cached in memory (uploads read uploads_enabled on every call). */
export class SettingsService {
  private cache: SiteSettings | undefined;
  private readonly repo: SettingsRepo;
  private readonly listeners = new Set<SettingsListener>();

  constructor(
    db: Kysely<DB>,
    private readonly coverShowable: CoverCheck = async () => false,
  ) {
    this.repo = new SettingsRepo(db);
  }

  /** First start: store SPEC's defaults with the env-provided names and uploads switch. */
  async seed(seed: { coupleNames?: readonly [string, string]; uploadsEnabled: boolean }): Promise<void> {
    const data = defaultSettings();
    if (seed.coupleNames) data.couple_names = [seed.coupleNames[0], seed.coupleNames[1]];
    data.uploads_enabled = seed.uploadsEnabled;
    if (await this.repo.insertIfMissing(JSON.stringify(data))) this.cache = data;
  }

  async get(): Promise<SiteSettings> {
    if (this.cache) return this.cache;
    const stored = await this.repo.read();
    this.cache = stored ? { ...defaultSettings(), ...(JSON.parse(stored) as Partial<SiteSettings>) } : defaultSettings();
    return this.cache;
  }

  /** The wedding's default language now (the cache is warm once the server runs; English before). */
  defaultLanguage(): string {
    const lang = this.cache?.default_language;
    return lang && isShipped(lang) ? lang : 'en';
  }

  async uploadsEnabled(): Promise<boolean> {
    return (await this.get()).uploads_enabled;
  }

  /** Whether guests see who shared a photo (gallery items and the wall carry uploader_name). */
  async showUploaderNames(): Promise<boolean> {
    return (await this.get()).show_uploader_names;
  }

  /** The settings cached now (the server warms them at start), for pages served without waiting. */
  peek(): WeddingSettings {
    return this.cache ?? defaultSettings();
  }

  /** The cover's address as guests load it, or null (a chosen photo that was hidden or deleted shows none). */
  async coverUrl(s?: WeddingSettings): Promise<string | null> {
    const v = s ?? (await this.get());
    return coverUrl(v, !!v.cover_photo_id && (await this.coverShowable(v.cover_photo_id)));
  }

  /** The ids of the photo challenges guests may pick now. */
  async challengeIds(): Promise<ReadonlySet<string>> {
    return new Set((await this.get()).challenges.map((c) => c.id));
  }

  /**
   * The address an admin last saved the notification settings from (`https://host`), or null:
   * where links in messages point when PUBLIC_URL is not set.
   */
  notifySiteUrl(): string | null {
    return this.cache?.notify_site_url ?? null;
  }

  /**
   * Applies a partial update after validating every field given. `savedFrom`: the address
   * (`protocol://host`) the admin saving it reached the panel at; kept when the notification
   * settings are among the changes.
   */
  async update(body: unknown, savedFrom?: string): Promise<SiteSettings> {
    const previous = await this.get();
    const patch = parseSettingsPatch(body, previous);
    if (patch.notify && savedFrom) patch.notify_site_url = savedFrom;
    const faces = resolveFaceSettings(previous, patch);
    if ('problem' in faces) throw invalidAll([faces.problem]);
    if (patch.cover_image && patch.cover_image !== previous.cover_image) throw invalid('errors.settings.cover_image');
    if (patch.cover_photo_id && patch.cover_photo_id !== previous.cover_photo_id) {
      if (!(await this.coverShowable(patch.cover_photo_id))) throw invalid('errors.settings.cover_not_approved');
      patch.cover_image = null;
    }
    return this.save({ ...previous, ...patch, ...faces }, previous);
  }

  /** An uploaded cover image (already stored) becomes the cover. */
  async setCoverImage(id: string | null): Promise<SiteSettings> {
    const previous = await this.get();
    return this.save({ ...previous, cover_image: id, cover_photo_id: id ? null : previous.cover_photo_id }, previous);
  }

  private async save(next: SiteSettings, previous: SiteSettings): Promise<SiteSettings> {
    await this.repo.write(JSON.stringify(next));
    this.cache = next;
    for (const fn of this.listeners) await fn(next, previous);
    return next;
  }

  /** Calls `fn` after every saved update; returns the unsubscribe function. */
  onChange(fn: SettingsListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }
}

/** What anyone may read (GET /api/settings): the admin-only settings left out. */
export function publicSettings(s: SiteSettings): WeddingSettings {
  const out: Record<string, unknown> = { ...s };
  for (const k of ADMIN_ONLY_KEYS) delete out[k];
  delete out.notify_site_url;
  return out as unknown as WeddingSettings;
}

/** What admins read (GET and PUT /admin/api/settings): every setting, secrets masked. */
export const adminSettings = ({ notify_site_url: _saved, ...s }: SiteSettings): SiteSettings => ({ ...s, notify: maskNotify(s.notify) });

/** `previous`: what is stored, kept where a PUT sends a secret back masked. */
export function parseSettingsPatch(body: unknown, previous: SiteSettings = defaultSettings()): Partial<SiteSettings> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('errors.settings.not_object');
  const b = body as Record<string, unknown>;
  const problems: Message[] = [];
  const out: Partial<SiteSettings> = {};
  const known = new Set([
    'couple_names',
    'welcome_message',
    'photo_sharing_message',
    'thank_you_message',
    'schedule',
    'uploads_enabled',
    'show_uploader_names',
    'default_language',
    'translations',
    'cover_image',
    ...LOOK_KEYS,
    'challenges',
    ...CONTROL_KEYS,
    ...FACE_KEYS,
    ...ADMIN_ONLY_KEYS,
    ...CAMERA_KEYS,
  ]);
  for (const key of Object.keys(b)) if (!known.has(key)) problems.push(msg('errors.settings.unknown', { key }));

  const text = (v: unknown, field: Message, max: number, required = true): string | undefined => {
    if (typeof v !== 'string') {
      problems.push(msg('errors.rule.text', { field }));
      return undefined;
    }
    const t = v.trim();
    if (required && t === '') problems.push(msg('errors.rule.required', { field }));
    else if (t.length > max) problems.push(msg('errors.rule.max_chars', { field, max }));
    else return t;
    return undefined;
  };

  if (b.couple_names !== undefined) {
    const n = b.couple_names;
    if (!Array.isArray(n) || n.length !== 2) problems.push(msg('errors.settings.couple_names'));
    else {
      const a = text(n[0], msg('errors.field.first_name'), 60);
      const c = text(n[1], msg('errors.field.second_name'), 60);
      if (a !== undefined && c !== undefined) out.couple_names = [a, c];
    }
  }
  const LONG_TEXTS = { welcome_message: 'errors.field.welcome_message', photo_sharing_message: 'errors.field.photo_sharing_message', thank_you_message: 'errors.field.thank_you_message' } as const;
  for (const key of Object.keys(LONG_TEXTS) as (keyof typeof LONG_TEXTS)[]) {
    if (b[key] !== undefined) {
      const v = text(b[key], msg(LONG_TEXTS[key]), 2000, false);
      if (v !== undefined) out[key] = v;
    }
  }
  if (b.schedule !== undefined) {
    const s = b.schedule;
    if (!Array.isArray(s) || s.length < 1 || s.length > 10) problems.push(msg('errors.settings.schedule_length'));
    else {
      const items: ScheduleItem[] = [];
      s.forEach((raw, i) => {
        if (typeof raw !== 'object' || raw === null) {
          problems.push(msg('errors.settings.schedule_item', { item: i + 1 }));
          return;
        }
        const item = {} as ScheduleItem;
        for (const f of SCHEDULE_FIELDS) {
          const v = (raw as Record<string, unknown>)[f] ?? '';
          const t = text(v, msg('errors.field.schedule_item', { item: i + 1, name: f }), f === 'description' ? 1000 : 200, f === 'title');
          if (t !== undefined) item[f] = t;
        }
        Object.assign(item, parseWindow(raw as Record<string, unknown>, i, problems));
        items.push(item);
      });
      checkWindows(items, problems);
      out.schedule = items;
    }
  }
  if (b.uploads_enabled !== undefined) {
    if (typeof b.uploads_enabled !== 'boolean') problems.push(msg('errors.rule.boolean', { field: 'uploads_enabled' }));
    else out.uploads_enabled = b.uploads_enabled;
  }
  if (b.show_uploader_names !== undefined) {
    if (typeof b.show_uploader_names !== 'boolean') problems.push(msg('errors.rule.boolean', { field: 'show_uploader_names' }));
    else out.show_uploader_names = b.show_uploader_names;
  }
  if (b.default_language !== undefined) {
    if (isShipped(b.default_language)) out.default_language = b.default_language;
    else problems.push(msg('errors.settings.default_language', { languages: SHIPPED.join(', ') }));
  }
  if (b.translations !== undefined) {
    const t = parseTranslations(b.translations, problems);
    if (t) out.translations = t;
  }
  if (b.require_two_step !== undefined) {
    if (typeof b.require_two_step !== 'boolean') problems.push(msg('errors.rule.boolean', { field: 'require_two_step' }));
    else out.require_two_step = b.require_two_step;
  }
  if (b.notify !== undefined) {
    const notify = parseNotify(b.notify, previous.notify, problems);
    if (notify) out.notify = notify;
  }
  if (b.cover_image !== undefined) {
    if (b.cover_image === null || (typeof b.cover_image === 'string' && /^[a-f0-9-]{1,64}$/.test(b.cover_image))) out.cover_image = b.cover_image;
    else problems.push(msg('errors.settings.cover_image'));
  }
  if (b.challenges !== undefined) {
    const challenges = parseChallenges(b.challenges, problems);
    if (challenges) out.challenges = challenges;
  }
  Object.assign(out, parseControls(b, problems), parseLook(b, problems), parseCameraSettings(b, problems));
  Object.assign(out, parseFaceSettings(b, typeof out.time_zone === 'string' ? out.time_zone : previous.time_zone, problems));
  if (problems.length > 0) throw invalidAll(problems);
  return out;
}
