import { sql, type Kysely } from 'kysely';
import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/open.js';
import type { DB, PhotoRow, PhotoUpdate } from '../db/schema.js';
import { GALLERY_COLUMNS, type GalleryRow } from './photos.mappers.js';

/** Which photos an admin list shows: all, visible only, or hidden only (the approval queue). */
export type AdminFilter = 'all' | 'visible' | 'hidden';

export interface CameraCount {
  camera_make: string | null;
  camera_model: string | null;
  n: number;
}

/** Every SQL statement about photos. */
/** Every ANCHOR_STEP-th visible photo's sort key is remembered, so a deep page skips at most that many. */
const ANCHOR_STEP = 100;
/** Pages kept between two changes of the gallery (every guest scrolls through the same first pages). */
const MAX_CACHED_PAGES = 1000;

type SortKey = [upload_timestamp: string, id: string];

export class PhotosRepo {
  // The public gallery is the hot path (every guest's phone, the wall). OFFSET makes SQLite walk
  // past every earlier row, so pages start from a remembered sort key near the offset instead
  // (a keyset seek). Keys and pages read are kept until a visible photo changes.
  private readonly firstKey: Statement<[]>;
  private readonly nextAnchor: Statement<[string, string]>;
  private readonly pageFrom: Statement<[string, string, number, number]>;
  private readonly visibleCount: Statement<[]>;
  private readonly galleryVersion: Statement<[]>;
  private gallery: { mark: number; anchors: SortKey[]; total: number; pages: Map<string, GalleryRow[]> } | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    sqlite: Sqlite,
  ) {
    const order = 'ORDER BY upload_timestamp DESC, id DESC';
    this.firstKey = sqlite.prepare(`SELECT upload_timestamp, id FROM photos WHERE is_visible = 1 ${order} LIMIT 1`).raw() as Statement<[]>;
    this.nextAnchor = sqlite
      .prepare(`SELECT upload_timestamp, id FROM photos WHERE is_visible = 1 AND (upload_timestamp, id) <= (?, ?) ${order} LIMIT 1 OFFSET ${ANCHOR_STEP}`)
      .raw() as Statement<[string, string]>;
    this.pageFrom = sqlite.prepare(
      `SELECT ${GALLERY_COLUMNS.join(', ')} FROM photos WHERE is_visible = 1 AND (upload_timestamp, id) <= (?, ?) ${order} LIMIT ? OFFSET ?`,
    );
    this.visibleCount = sqlite.prepare(`SELECT count(*) FROM photos WHERE is_visible = 1`).pluck();
    // Bumped by triggers whenever a visible photo is inserted, updated or deleted, on any connection.
    this.galleryVersion = sqlite.prepare(`SELECT n FROM gallery_version WHERE id = 1`).pluck();
  }

  private galleryIndex() {
    const mark = this.galleryVersion.get() as number;
    if (this.gallery?.mark === mark) return this.gallery;
    const anchors: SortKey[] = [];
    let key = this.firstKey.get() as SortKey | undefined;
    while (key) {
      anchors.push(key);
      key = this.nextAnchor.get(key[0], key[1]) as SortKey | undefined;
    }
    this.gallery = { mark, anchors, total: this.visibleCount.get() as number, pages: new Map() };
    return this.gallery;
  }

  /** Visible photos, newest first; the id breaks ties so pages never overlap. */
  listVisible(limit: number, offset: number): GalleryRow[] {
    const { anchors, total, pages } = this.galleryIndex();
    if (offset >= total) return [];
    const key = `${limit}:${offset}`;
    let rows = pages.get(key);
    if (!rows) {
      const anchor = anchors[Math.floor(offset / ANCHOR_STEP)];
      rows = this.pageFrom.all(anchor[0], anchor[1], limit, offset % ANCHOR_STEP) as GalleryRow[];
      if (pages.size >= MAX_CACHED_PAGES) pages.clear();
      pages.set(key, rows);
    }
    return rows;
  }

  countVisible(): number {
    return this.galleryIndex().total;
  }

  byId(id: string): Promise<PhotoRow | undefined> {
    return this.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirst();
  }

  byIds(ids: readonly string[]): Promise<PhotoRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.db.selectFrom('photos').selectAll().where('id', 'in', ids).execute();
  }

  private filtered(filter: AdminFilter) {
    let q = this.db.selectFrom('photos');
    if (filter === 'visible') q = q.where('is_visible', '=', 1);
    if (filter === 'hidden') q = q.where('is_visible', '=', 0);
    return q;
  }

  listAdmin(filter: AdminFilter, limit: number, offset: number): Promise<PhotoRow[]> {
    return this.filtered(filter)
      .selectAll()
      .orderBy('upload_timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async countAdmin(filter: AdminFilter): Promise<number> {
    const r = await this.filtered(filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  allIds(): Promise<string[]> {
    return this.db
      .selectFrom('photos')
      .select('id')
      .orderBy('upload_timestamp')
      .execute()
      .then((rows) => rows.map((r) => r.id));
  }

  update(id: string, patch: PhotoUpdate): Promise<PhotoRow | undefined> {
    return this.db.updateTable('photos').set(patch).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Sets visibility on many photos; returns the rows whose visibility actually changed. */
  async setVisibleMany(ids: readonly string[], visible: boolean, approvedAt: string): Promise<PhotoRow[]> {
    if (!ids.length) return [];
    const changed = await this.db
      .updateTable('photos')
      .set(visible ? { is_visible: 1, approved_at: sql<string>`coalesce(approved_at, ${approvedAt})` } : { is_visible: 0 })
      .where('id', 'in', ids)
      .where('is_visible', '=', visible ? 0 : 1)
      .returningAll()
      .execute();
    return changed;
  }

  async delete(id: string): Promise<PhotoRow | undefined> {
    return this.db.deleteFrom('photos').where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Totals over every stored photo (for /api/stats and the dashboard). */
  async totals(): Promise<{ total: number; visible: number; videos: number; bytes: number }> {
    const r = await this.db
      .selectFrom('photos')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.coalesce(eb.fn.sum<number>('is_visible'), sql<number>`0`).as('visible'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('content_type', 'like', 'video/%').then(1).else(0).end()), sql<number>`0`).as('videos'),
        eb.fn.coalesce(eb.fn.sum<number>('file_size'), sql<number>`0`).as('bytes'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(r.total), visible: Number(r.visible), videos: Number(r.videos), bytes: Number(r.bytes) };
  }

  /** Changes whenever media is added, removed, rebuilt or partly received (cheap: one scan of two tables). */
  async storageSignature(): Promise<string> {
    const r = await sql<{ sig: string }>`
      SELECT (SELECT count(*) || ':' || coalesce(sum(file_size), 0) || ':' || coalesce(sum(derivative_version), 0) || ':' || count(thumb_path) || ':' || count(display_path) FROM photos)
        || '/' || (SELECT count(*) || ':' || coalesce(sum(received_bytes), 0) FROM uploads) AS sig`.execute(this.db);
    return r.rows[0]?.sig ?? '';
  }

  cameraCounts(): Promise<CameraCount[]> {
    return this.db
      .selectFrom('photos')
      .select((eb) => ['camera_make', 'camera_model', eb.fn.countAll<number>().as('n')])
      .where((eb) => eb.or([eb('camera_make', 'is not', null), eb('camera_model', 'is not', null)]))
      .groupBy(['camera_make', 'camera_model'])
      .execute();
  }

  /**
   * Uploads since `sinceIso`, counted per UTC day. SQLite's date() reads any ISO 8601 time with
   * a zone, so the grouping does not depend on how a timestamp was written.
   */
  async uploadsPerDay(sinceIso: string): Promise<Map<string, number>> {
    const rows = await sql<{ day: string; n: number }>`
      SELECT date(upload_timestamp) AS day, count(*) AS n FROM photos
      WHERE julianday(upload_timestamp) >= julianday(${sinceIso})
      GROUP BY day`.execute(this.db);
    return new Map(rows.rows.map((r) => [r.day, Number(r.n)]));
  }

  async countSince(sinceIso: string): Promise<number> {
    const r = await sql<{ n: number }>`
      SELECT count(*) AS n FROM photos WHERE julianday(upload_timestamp) >= julianday(${sinceIso})`.execute(this.db);
    return Number(r.rows[0]?.n ?? 0);
  }
}
