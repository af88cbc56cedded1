import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely, type Selectable } from 'kysely';
import { themeById } from '../../common/themes.js';
import type { DataPaths, Originals } from '../context.js';
import type { DB, KeepsakesTable, PhotosTable } from '../db/schema.js';
import { conflict, invalid, notFound } from '../errors.js';
import { translate } from '../i18n/messages.js';
import { log } from '../log.js';
import type { KeepsakeRunner, MakeKeepsake, Processing } from '../processing/processing.service.js';
import { coverFile } from '../settings/cover.js';
import { momentOf, momentWindows } from '../settings/moments.js';
import { namesIn } from '../settings/page-head.js';
import type { SettingsService } from '../settings/settings.service.js';
import { keepsakeFonts } from './fonts.js';
import type { BookMessage, KeepsakeKind, KeepsakePlan, KeepsakeSource, Paper, PlanItem } from '../processing/keepsake-plan.js';

export const FILM_SECONDS = { min: 60, max: 600, default: 180 };
const SOURCES: readonly KeepsakeSource[] = ['highlights', 'loved', 'visible'];
const PAPERS: readonly Paper[] = ['A4', 'letter', 'square'];
const TITLE_MAX = 120;
/** What a keepsake from a source with no photo is answered. */
const NOTHING = { highlights: 'errors.keepsakes.nothing_highlights', loved: 'errors.keepsakes.nothing_loved', visible: 'errors.keepsakes.nothing_visible' } as const;

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

/** A keepsake as GET /admin/api/keepsakes lists it. */
export interface KeepsakeView {
  id: string;
  kind: KeepsakeKind;
  status: 'queued' | 'making' | 'ready' | 'error';
  progress: number;
  created_at: string;
  finished_at: string | null;
  file_size: number | null;
  url: string | null;
  error: string | null;
  source: KeepsakeSource;
  title: string | null;
  seconds: number | null;
  paper: Paper | null;
  music_id: string | null;
}

export interface KeepsakesDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  settings: SettingsService;
  processing: Processing;
  originals: Originals;
  publicUrl: string | undefined;
  ffmpegPath: string;
  ffprobePath: string;
}

/** media/keepsakes/ under DATA_DIR: the films, the books and (music/) the couple's tracks. */
export const keepsakesDir = (paths: DataPaths) => path.join(paths.root, 'media', 'keepsakes');
export const musicDir = (paths: DataPaths) => path.join(keepsakesDir(paths), 'music');

type Row = Selectable<KeepsakesTable>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a request's body; the options to keep, or a 400 saying what is wrong. */
export function readRequest(body: unknown): { kind: KeepsakeKind; options: KeepsakeOptions } {
  if (!isObject(body)) throw invalid('errors.keepsakes.bad_kind');
  const kind = body.kind;
  if (kind !== 'film' && kind !== 'book') throw invalid('errors.keepsakes.bad_kind');
  const source = body.source ?? 'visible';
  if (!SOURCES.includes(source as KeepsakeSource)) throw invalid('errors.keepsakes.bad_source');
  const title = body.title ?? null;
  if (title !== null && (typeof title !== 'string' || title.trim().length > TITLE_MAX)) throw invalid('errors.keepsakes.bad_title');
  const options: KeepsakeOptions = { source: source as KeepsakeSource, title: typeof title === 'string' && title.trim() ? title.trim() : null };
  if (kind === 'film') {
    const seconds = body.seconds ?? FILM_SECONDS.default;
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < FILM_SECONDS.min || seconds > FILM_SECONDS.max) {
      throw invalid('errors.keepsakes.bad_seconds', { min: FILM_SECONDS.min, max: FILM_SECONDS.max });
    }
    const music = body.music_id ?? null;
    if (music !== null && typeof music !== 'string') throw invalid('errors.keepsakes.unknown_music');
    options.seconds = seconds;
    options.music_id = music;
  } else {
    const paper = body.paper ?? 'A4';
    if (!PAPERS.includes(paper as Paper)) throw invalid('errors.keepsakes.bad_paper');
    options.paper = paper as Paper;
  }
  return { kind, options };
}

type Photo = Pick<Selectable<PhotosTable>, 'id' | 'stored_path' | 'content_type' | 'width' | 'height' | 'duration' | 'uploader_name' | 'date_taken' | 'upload_timestamp' | 'hearts' | 'display_path' | 'shot_at'>;

/**
 * Films and photo books made from the day: requests, their rows and files, and the plan the
 * media worker makes each from (visible photos only, texts in the wedding's default language).
 */
export class KeepsakesService implements KeepsakeRunner {
  constructor(private readonly d: KeepsakesDeps) {}

  async create(kind: KeepsakeKind, options: KeepsakeOptions, createdBy: string): Promise<KeepsakeView> {
    if (options.music_id && !(await this.music(options.music_id))) throw invalid('errors.keepsakes.unknown_music');
    if (!(await this.photos(options.source, kind)).length) throw invalid(NOTHING[options.source]);
    const id = crypto.randomUUID();
    await this.d.db
      .insertInto('keepsakes')
      .values({ id, kind, options: JSON.stringify(options), created_by: createdBy, created_at: new Date().toISOString(), path: null, file_size: null, error: null, finished_at: null })
      .execute();
    await this.d.processing.keepsakes.enqueue(id);
    return (await this.get(id))!;
  }

  async list(): Promise<KeepsakeView[]> {
    const rows = await this.d.db.selectFrom('keepsakes').selectAll().orderBy('created_at', 'desc').execute();
    return rows.map((r) => this.view(r as Row));
  }

  async get(id: string): Promise<KeepsakeView | undefined> {
    const r = await this.d.db.selectFrom('keepsakes').selectAll().where('id', '=', id).executeTakeFirst();
    return r ? this.view(r as Row) : undefined;
  }

  /** A ready keepsake's file: its absolute path, name and type. */
  async file(id: string): Promise<{ abs: string; name: string; type: string }> {
    const r = await this.d.db.selectFrom('keepsakes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!r) throw notFound('errors.keepsakes.not_found');
    if (r.status !== 'ready' || !r.path) throw conflict('errors.keepsakes.not_ready');
    const film = r.kind === 'film';
    return { abs: path.join(this.d.paths.root, r.path), name: `${film ? 'film' : 'book'}-${r.created_at.slice(0, 10)}${film ? '.mp4' : '.pdf'}`, type: film ? 'video/mp4' : 'application/pdf' };
  }

  async delete(id: string): Promise<void> {
    const r = await this.d.db.deleteFrom('keepsakes').where('id', '=', id).returningAll().executeTakeFirst();
    if (!r) throw notFound('errors.keepsakes.not_found');
    if (r.path) await fs.rm(path.join(this.d.paths.root, r.path), { force: true });
  }

  async shareFilm(): Promise<boolean> {
    const r = await this.d.db.selectFrom('keepsake_share').select('share_film').where('id', '=', 1).executeTakeFirst();
    return r?.share_film === 1;
  }

  async setShareFilm(on: boolean): Promise<void> {
    await this.d.db
      .insertInto('keepsake_share')
      .values({ id: 1, share_film: on ? 1 : 0, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('id').doUpdateSet({ share_film: on ? 1 : 0, updated_at: new Date().toISOString() }))
      .execute();
  }

  /** The newest ready film while the couple shares it, else undefined. */
  async sharedFilm(): Promise<{ id: string; abs: string; created_at: string; file_size: number | null } | undefined> {
    if (!(await this.shareFilm())) return undefined;
    const r = await this.d.db.selectFrom('keepsakes').selectAll().where('kind', '=', 'film').where('status', '=', 'ready').orderBy('created_at', 'desc').executeTakeFirst();
    if (!r?.path) return undefined;
    return { id: r.id, abs: path.join(this.d.paths.root, r.path), created_at: r.created_at, file_size: r.file_size };
  }

  async addMusic(row: { id: string; path: string; original_name: string; content_type: string; file_size: number; duration: number }): Promise<void> {
    await this.d.db.insertInto('keepsake_music').values({ ...row, created_at: new Date().toISOString() }).execute();
  }

  async listMusic() {
    return this.d.db.selectFrom('keepsake_music').select(['id', 'original_name', 'file_size', 'duration', 'created_at']).orderBy('created_at', 'desc').execute();
  }

  private music(id: string) {
    return this.d.db.selectFrom('keepsake_music').selectAll().where('id', '=', id).executeTakeFirst();
  }

  // ---- the job (processing calls these) ----

  async run(keepsakeId: string, make: MakeKeepsake): Promise<void> {
    const row = (await this.d.db.selectFrom('keepsakes').selectAll().where('id', '=', keepsakeId).executeTakeFirst()) as Row | undefined;
    if (!row) return; // deleted while it waited
    await this.d.db.updateTable('keepsakes').set({ status: 'making', progress: 0, error: null }).where('id', '=', keepsakeId).execute();
    const dir = keepsakesDir(this.d.paths);
    await fs.mkdir(dir, { recursive: true });
    const plan = await this.plan(row, dir);
    let last = 0;
    const outcome = await make(plan, (percent) => {
      const p = Math.max(0, Math.min(99, Math.round(percent)));
      if (p === last) return;
      last = p;
      void this.d.db.updateTable('keepsakes').set({ progress: p }).where('id', '=', keepsakeId).where('status', '=', 'making').execute().catch(() => undefined);
    });
    const rel = path.relative(this.d.paths.root, plan.output);
    const done = await this.d.db
      .updateTable('keepsakes')
      .set({ status: 'ready', progress: 100, path: rel, file_size: outcome.bytes, finished_at: new Date().toISOString() })
      .where('id', '=', keepsakeId)
      .executeTakeFirst();
    // Deleted while it was being made: its file goes too.
    if (Number(done.numUpdatedRows) === 0) await fs.rm(plan.output, { force: true });
  }

  async failed(keepsakeId: string, error: Error): Promise<void> {
    log.warn(`Keepsake ${keepsakeId} could not be made: ${error.message}`);
    await this.d.db.updateTable('keepsakes').set({ status: 'error', error: error.message.slice(0, 1000) }).where('id', '=', keepsakeId).execute();
  }

  /** The visible photos (and for films, videos) of a source, best first. */
  private async photos(source: KeepsakeSource, kind: KeepsakeKind): Promise<Photo[]> {
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

  private async plan(row: Row, dir: string): Promise<KeepsakePlan> {
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

  private view(r: Row): KeepsakeView {
    const o = JSON.parse(r.options) as KeepsakeOptions;
    return {
      id: r.id,
      kind: r.kind,
      status: r.status,
      progress: r.progress,
      created_at: r.created_at,
      finished_at: r.finished_at,
      file_size: r.file_size,
      url: r.status === 'ready' ? `/admin/api/keepsakes/${r.id}/file` : null,
      error: r.error,
      source: o.source,
      title: o.title,
      seconds: o.seconds ?? null,
      paper: o.paper ?? null,
      music_id: o.music_id ?? null,
    };
  }
}
