import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { KeepsakeKind, KeepsakeSource, KeepsakeView, Paper } from '../../common/keepsake-types.js';
import type { DataPaths } from '../context.js';
import { conflict, invalid, notFound } from '../errors.js';
import { log } from '../log.js';
import type { KeepsakeRunner, MakeKeepsake, Processing } from '../processing/processing.service.js';
import { FILM_SECONDS, KeepsakePlanner, type KeepsakeOptions, type KeepsakeRow, type PlannerDeps } from './keepsake-planner.js';

const SOURCES: readonly KeepsakeSource[] = ['highlights', 'loved', 'visible'];
const PAPERS: readonly Paper[] = ['A4', 'letter', 'square'];
const TITLE_MAX = 120;
/** What a keepsake from a source with no photo is answered. */
const NOTHING = { highlights: 'errors.keepsakes.nothing_highlights', loved: 'errors.keepsakes.nothing_loved', visible: 'errors.keepsakes.nothing_visible' } as const;

export interface KeepsakesDeps extends PlannerDeps {
  processing: Processing;
}

/** media/keepsakes/ under DATA_DIR: the films, the books and (music/) the couple's tracks. */
export const keepsakesDir = (paths: DataPaths) => path.join(paths.root, 'media', 'keepsakes');
export const musicDir = (paths: DataPaths) => path.join(keepsakesDir(paths), 'music');

/** Everything a keepsake's making writes in `dir`: its file, the file in progress, its work folder. */
async function removeMade(dir: string, id: string): Promise<void> {
  const names = (await fs.readdir(dir).catch(() => [] as string[])).filter((n) => n.startsWith(`${id}.`));
  await Promise.all(names.map((n) => fs.rm(path.join(dir, n), { recursive: true, force: true })));
}

type Row = KeepsakeRow;

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

/**
 * Films and photo books made from the day: requests, their rows and files, and the plan the
 * media worker makes each from (visible photos only, texts in the wedding's default language).
 */
export class KeepsakesService implements KeepsakeRunner {
  private readonly planner: KeepsakePlanner;
  /** The keepsakes being made, by id: deleting one stops it. */
  private readonly making = new Map<string, AbortController>();

  constructor(private readonly d: KeepsakesDeps) {
    this.planner = new KeepsakePlanner(d);
  }

  async create(kind: KeepsakeKind, options: KeepsakeOptions, createdBy: string): Promise<KeepsakeView> {
    if (options.music_id && !(await this.planner.music(options.music_id))) throw invalid('errors.keepsakes.unknown_music');
    if (!(await this.planner.photos(options.source, kind)).length) throw invalid(NOTHING[options.source]);
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

  /** Deletes a keepsake and its file; one being made is stopped at once (its tool killed, its partial files removed). */
  async delete(id: string): Promise<void> {
    const r = await this.d.db.deleteFrom('keepsakes').where('id', '=', id).returningAll().executeTakeFirst();
    if (!r) throw notFound('errors.keepsakes.not_found');
    this.making.get(id)?.abort();
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

  // ---- the job (processing calls these) ----

  async run(keepsakeId: string, make: MakeKeepsake): Promise<void> {
    const row = (await this.d.db.selectFrom('keepsakes').selectAll().where('id', '=', keepsakeId).executeTakeFirst()) as Row | undefined;
    if (!row) return; // deleted while it waited
    const cancel = new AbortController();
    this.making.set(keepsakeId, cancel);
    const dir = keepsakesDir(this.d.paths);
    try {
      const started = await this.d.db.updateTable('keepsakes').set({ status: 'making', progress: 0, error: null }).where('id', '=', keepsakeId).executeTakeFirst();
      if (Number(started.numUpdatedRows) === 0) return; // deleted just now
      await fs.mkdir(dir, { recursive: true });
      const plan = await this.planner.plan(row, dir);
      cancel.signal.throwIfAborted();
      let last = 0;
      const outcome = await make(
        plan,
        (percent) => {
          const p = Math.max(0, Math.min(99, Math.round(percent)));
          if (p === last) return;
          last = p;
          void this.d.db.updateTable('keepsakes').set({ progress: p }).where('id', '=', keepsakeId).where('status', '=', 'making').execute().catch(() => undefined);
        },
        cancel.signal,
      );
      const rel = path.relative(this.d.paths.root, plan.output);
      const done = await this.d.db
        .updateTable('keepsakes')
        .set({ status: 'ready', progress: 100, path: rel, file_size: outcome.bytes, finished_at: new Date().toISOString() })
        .where('id', '=', keepsakeId)
        .executeTakeFirst();
      // Deleted as it was finished: its file goes too.
      if (Number(done.numUpdatedRows) === 0) await removeMade(dir, keepsakeId);
    } catch (e) {
      // Deleted while it was being made: what it left goes (the worker removes its own as it stops).
      if (!cancel.signal.aborted) throw e;
      await removeMade(dir, keepsakeId);
    } finally {
      this.making.delete(keepsakeId);
    }
  }

  async failed(keepsakeId: string, error: Error): Promise<void> {
    log.warn(`Keepsake ${keepsakeId} could not be made: ${error.message}`);
    await this.d.db.updateTable('keepsakes').set({ status: 'error', error: error.message.slice(0, 1000) }).where('id', '=', keepsakeId).execute();
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
