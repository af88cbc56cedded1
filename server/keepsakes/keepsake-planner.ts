import path from 'node:path';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { KeepsakeKind, KeepsakeSource, Paper } from '../../common/keepsake-types.js';
import { themeById } from '../../common/themes.js';
import type { DataPaths, Originals } from '../context.js';
import type { DB, KeepsakesTable, PhotosTable } from '../db/schema.js';
import { translate } from '../i18n/messages.js';
import type { BookMessage, KeepsakePlan, PlanItem } from '../processing/keepsake-plan.js';
import { coverFile } from '../settings/cover.js';
import { momentOf, momentWindows } from '../settings/moments.js';
import { namesIn } from '../settings/page-head.js';
import type { SettingsService } from '../settings/settings.service.js';
import { keepsakeFonts } from './fonts.js';

/** A film's length in seconds. */
export const FILM_SECONDS = { min: 60, max: 600, default: 180 };

/** What was asked for a keepsake (kept as JSON in its row). */
export interface KeepsakeOptions {
  source: KeepsakeSource;
  title: string | null;
  seconds?: number;
  music_id?: string | null;
  paper?: Paper;
  /** Where the book's QR codes lead when no public address is set: the panel's own address. */
  origin?: string | null;
}

/** What the plans are made from. */
export interface PlannerDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  settings: SettingsService;
  originals: Originals;
  publicUrl: string | undefined;
  ffmpegPath: string;
  ffprobePath: string;
}

export type KeepsakeRow = Selectable<KeepsakesTable>;
type Row = KeepsakeRow;
type Photo = Pick<Selectable<PhotosTable>, 'id' | 'stored_path' | 'content_type' | 'width' | 'height' | 'duration' | 'uploader_name' | 'date_taken' | 'upload_timestamp' | 'hearts' | 'display_path' | 'shot_at'>;

/**
 * The plan the media worker makes a keepsake from: the visible photos of its source with their
 * files, moments and bylines, the cover, the fonts and colours of the theme, and every text in the
 * wedding's default language.
 */
export class KeepsakePlanner {
  constructor(private readonly d: PlannerDeps) {}

  /** The visible photos (and for films, videos) of a source, best first. */
  async photos(source: KeepsakeSource, kind: KeepsakeKind): Promise<Photo[]> {
    let q = this.d.db
      .selectFrom('photos')
      .select(['id', 'stored_path', 'content_type', 'width', 'height', 'duration', 'uploader_name', 'date_taken', 'upload_timestamp', 'hearts', 'display_path', 'shot_at'])
      .where('is_visible', '=', 1)
      .where('status', '=', 'complete')
      .where('display_path', 'is not', null)
      .where('width', 'is not', null)
      .where('height', 'is not', null);
    if (kind === 'book') q = q.where('content_type', 'like', 'image/%');
    if (source === 'highlights') q = q.where('highlighted', '=', 1);
    if (source === 'loved') q = q.where('hearts', '>', 0);
    return (await q.orderBy('hearts', 'desc').orderBy(sql`coalesce(shot_at, 0)`).orderBy('id').execute()) as Photo[];
  }

  music(id: string) {
    return this.d.db.selectFrom('keepsake_music').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async plan(row: Row, dir: string): Promise<KeepsakePlan> {
    const options = JSON.parse(row.options) as KeepsakeOptions;
    const kind = row.kind;
    const s = await this.d.settings.get();
    const lang = s.default_language;
    const names = namesIn(lang, s);
    const windows = momentWindows(s);
    const moments = windows.map((w) => w.title);
    const photos = await this.photos(options.source, kind);
    const abs = (rel: string | null) => (rel ? path.join(this.d.paths.root, rel) : null);
    const items: PlanItem[] = [];
    for (const p of photos) {
      const video = p.content_type.startsWith('video/');
      const original = await this.d.originals.ensure(p).catch(() => null);
      const display = abs(p.display_path);
      // The film draws from the display copy (plenty for 1080p, quick to read), the book from the original.
      const [file, fallback] = kind === 'film' || video ? [display ?? original, original] : [original ?? display, display];
      if (!file) continue;
      const title = momentOf(p, windows);
      items.push({
        id: p.id,
        video,
        file,
        fallback: fallback === file ? null : fallback,
        width: p.width!,
        height: p.height!,
        duration: p.duration,
        byline: p.uploader_name ? translate(lang, 'keepsake.by', { name: p.uploader_name }) : null,
        moment: title === null ? -1 : moments.indexOf(title),
        at: p.shot_at ?? (Date.parse(p.date_taken ?? p.upload_timestamp) || 0),
      });
    }
    // The day's order: each moment in schedule order, in it by the time taken.
    const dayOrder = [...items].sort((a, b) => (a.moment < 0 ? 1e9 : a.moment) - (b.moment < 0 ? 1e9 : b.moment) || a.at - b.at);
    if (dayOrder.some((p) => p.moment < 0)) {
      moments.push(translate(lang, 'keepsake.more_moments'));
      for (const p of items) if (p.moment < 0) p.moment = moments.length - 1;
    }
    const first = windows[0];
    const date = first ? new Intl.DateTimeFormat(lang, { timeZone: s.time_zone, dateStyle: 'long' }).format(new Date(first.start)) : (s.schedule[0]?.day ?? '');
    const theme = themeById(s.theme);
    // An uploaded cover image, else the couple's cover photo, else the best still (for a book its original, as its pages draw it).
    const still = items.find((p) => !p.video);
    const image = s.cover_image ? coverFile(this.d.paths, s.cover_image) : null;
    const photo = image ? null : ((await this.coverPhoto(s.cover_photo_id, kind)) ?? (still ? { file: still.file, fallback: still.fallback } : null));
    const base = {
      work: path.join(dir, `${row.id}.work`),
      title: options.title ?? names,
      names,
      date,
      fonts: keepsakeFonts(s.theme),
      colours: { bg: theme.palette.bg, text: theme.palette.text, accent: theme.palette.accentStrong },
      cover: image ?? photo?.file ?? null,
      coverFallback: photo?.fallback ?? null,
      moments,
    };
    if (kind === 'film') {
      const music = options.music_id ? await this.music(options.music_id) : undefined;
      return {
        ...base,
        kind: 'film',
        output: path.join(dir, `${row.id}.mp4`),
        // Best first: the film chooses from the top and shows what it chose in the day's order.
        items,
        seconds: options.seconds ?? FILM_SECONDS.default,
        music: music ? path.join(this.d.paths.root, music.path) : null,
        closing: translate(lang, 'keepsake.closing'),
        ffmpegPath: this.d.ffmpegPath,
        ffprobePath: this.d.ffprobePath,
      };
    }
    return {
      ...base,
      kind: 'book',
      output: path.join(dir, `${row.id}.pdf`),
      items: dayOrder,
      paper: options.paper ?? 'A4',
      texts: { guestbook: translate(lang, 'keepsake.guestbook'), scanToListen: translate(lang, 'keepsake.scan_to_listen'), photos: translate(lang, 'keepsake.more_moments') },
      messages: await this.messages(lang, s.time_zone, options.origin ?? null, s.notify_site_url ?? null),
    };
  }

  /** The couple's cover photo: for a book its original (300 dpi on the cover), the display copy behind it; for a film the display copy. */
  private async coverPhoto(id: string | null, kind: KeepsakeKind): Promise<{ file: string; fallback: string | null } | null> {
    if (!id) return null;
    const p = await this.d.db
      .selectFrom('photos')
      .select(['id', 'stored_path', 'content_type', 'width', 'height', 'duration', 'uploader_name', 'date_taken', 'upload_timestamp', 'hearts', 'display_path', 'shot_at', 'is_visible'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (!p?.display_path || p.is_visible !== 1) return null;
    const display = path.join(this.d.paths.root, p.display_path);
    if (kind === 'film' || p.content_type.startsWith('video/')) return { file: display, fallback: null };
    const original = await this.d.originals.ensure(p).catch(() => null);
    return original ? { file: original, fallback: display } : { file: display, fallback: null };
  }

  private async messages(lang: string, zone: string, origin: string | null, saved: string | null): Promise<BookMessage[]> {
    const base = (this.d.publicUrl ?? saved ?? origin ?? '').replace(/\/+$/, '');
    const rows = await this.d.db
      .selectFrom('guestbook')
      .select(['id', 'name', 'message', 'created_at', 'web_audio_path', 'audio_status'])
      .where('is_visible', '=', 1)
      .orderBy('created_at')
      .execute();
    const when = new Intl.DateTimeFormat(lang, { timeZone: zone, dateStyle: 'long' });
    return rows.map((m) => ({
      name: m.name ?? translate(lang, 'keepsake.anonymous'),
      text: m.message,
      when: when.format(new Date(m.created_at)),
      voiceUrl: m.web_audio_path && m.audio_status === 'complete' && base ? `${base}/api/guestbook/${encodeURIComponent(m.id)}/audio` : null,
    }));
  }
}
