import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/open.js';
import { GALLERY_COLUMNS, type GalleryRow } from './photos.mappers.js';

/** Every ANCHOR_STEP-th visible photo's sort key is remembered, so a deep page skips at most that many. */
const ANCHOR_STEP = 100;
/** Pages kept between two changes of the gallery (every guest scrolls through the same first pages). */
const MAX_CACHED_PAGES = 1000;

type SortKey = [upload_timestamp: string, id: string];

/**
 * Which photos the public gallery (and the wall) list: the visible ones, except a video whose
 * web copy does not exist yet. The same text is the condition of the index photos_listed_order
 * (migration 0007); INDEXED BY holds SQLite to that index, which holds exactly these rows.
 */
export const LISTED = `is_visible = 1 AND (display_path IS NOT NULL OR content_type NOT LIKE 'video/%')`;
const FROM_LISTED = `FROM photos INDEXED BY photos_listed_order WHERE ${LISTED}`;

/**
 * The public gallery's reads (read-only; photos.repo.ts writes the table). This is the hot path
 * (every guest's phone, the wall), so it uses synchronous prepared statements on the connection
 * rather than Kysely. OFFSET makes SQLite walk past every earlier row, so pages start from a
 * remembered sort key near the offset instead (a keyset seek). Keys and pages read are kept until
 * a visible photo changes.
 */
export class GalleryRepo {
  private readonly firstKey: Statement<[]>;
  private readonly nextAnchor: Statement<[string, string]>;
  private readonly pageFrom: Statement<[string, string, number, number]>;
  private readonly visibleCount: Statement<[]>;
  private readonly galleryVersion: Statement<[]>;
  private readonly versions: Statement<[]>;
  private readonly sqlite: Sqlite;
  private gallery: { mark: number; anchors: SortKey[]; total: number; pages: Map<string, GalleryRow[]> } | undefined;
  private readonly lovedPage: Statement<[number, number]>;
  private readonly highlightPage: Statement<[number, number]>;
  private readonly highlightCount: Statement<[]>;
  /** Statements for a page's live heart counts and one guest's hearts, by the number of ids. */
  private readonly countsByN = new Map<number, Statement<string[]>>();
  private readonly heartedByN = new Map<number, Statement<string[]>>();

  constructor(sqlite: Sqlite) {
    const order = 'ORDER BY upload_timestamp DESC, id DESC';
    this.sqlite = sqlite;
    this.firstKey = sqlite.prepare(`SELECT upload_timestamp, id ${FROM_LISTED} ${order} LIMIT 1`).raw() as Statement<[]>;
    this.nextAnchor = sqlite
      .prepare(`SELECT upload_timestamp, id ${FROM_LISTED} AND (upload_timestamp, id) <= (?, ?) ${order} LIMIT 1 OFFSET ${ANCHOR_STEP}`)
      .raw() as Statement<[string, string]>;
    this.pageFrom = sqlite.prepare(
      `SELECT ${GALLERY_COLUMNS.join(', ')} ${FROM_LISTED} AND (upload_timestamp, id) <= (?, ?) ${order} LIMIT ? OFFSET ?`,
    );
    this.visibleCount = sqlite.prepare(`SELECT count(*) ${FROM_LISTED}`).pluck();
    // Bumped by triggers whenever a visible photo is inserted, updated or deleted, on any connection.
    this.galleryVersion = sqlite.prepare(`SELECT n FROM gallery_version WHERE id = 1`).pluck();
    // And hearts_version whenever a heart count moves: together they say whether an answer still holds.
    this.versions = sqlite
      .prepare(`SELECT (SELECT n FROM gallery_version WHERE id = 1), (SELECT n FROM hearts_version WHERE id = 1)`)
      .raw() as Statement<[]>;
    const cols = GALLERY_COLUMNS.join(', ');
    this.lovedPage = sqlite.prepare(
      `SELECT ${cols} FROM photos INDEXED BY photos_loved_order WHERE ${LISTED} ORDER BY hearts DESC, upload_timestamp DESC, id DESC LIMIT ? OFFSET ?`,
    );
    const highlights = `FROM photos INDEXED BY photos_highlight_order WHERE ${LISTED} AND highlighted = 1`;
    this.highlightPage = sqlite.prepare(`SELECT ${cols} ${highlights} ${order} LIMIT ? OFFSET ?`);
    this.highlightCount = sqlite.prepare(`SELECT count(*) ${highlights}`).pluck() as Statement<[]>;
  }

  private index() {
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

  /** The gallery's and the heart counts' versions now (each bumped by triggers, on any connection). */
  marks(): { gallery: number; hearts: number } {
    const [gallery, hearts] = this.versions.get() as [number, number];
    return { gallery, hearts };
  }

  /** Visible photos, newest first; the id breaks ties so pages never overlap. */
  listVisible(limit: number, offset: number): GalleryRow[] {
    const { anchors, total, pages } = this.index();
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
    return this.index().total;
  }

  /** Most hearts first, newest first among equals. Hearts move all day, so pages are read fresh. */
  listLoved(limit: number, offset: number): GalleryRow[] {
    return this.lovedPage.all(limit, offset) as GalleryRow[];
  }

  listHighlights(limit: number, offset: number): GalleryRow[] {
    return this.highlightPage.all(limit, offset) as GalleryRow[];
  }

  countHighlights(): number {
    return this.highlightCount.get() as number;
  }

  /**
   * The heart counts of these photos as they are now: cached pages keep their rows while only
   * hearts move (the gallery version ignores them), so each answer reads the counts afresh,
   * one primary-key lookup per photo.
   */
  heartCounts(ids: readonly string[]): Map<string, number> {
    if (!ids.length) return new Map();
    const rows = this.byCount(this.countsByN, ids.length, (marks) => `SELECT id, hearts FROM photos WHERE id IN (${marks})`).all(...ids) as { id: string; hearts: number }[];
    return new Map(rows.map((r) => [r.id, r.hearts]));
  }

  /** Which of these photos this guest hearted. */
  heartedBy(guestId: string, ids: readonly string[]): Set<string> {
    if (!ids.length) return new Set();
    const stmt = this.byCount(this.heartedByN, ids.length, (marks) => `SELECT photo_id FROM hearts WHERE guest_id = ? AND photo_id IN (${marks})`);
    return new Set((stmt.pluck().all(guestId, ...ids) as string[]));
  }

  private byCount(cache: Map<number, Statement<string[]>>, n: number, text: (marks: string) => string): Statement<string[]> {
    let stmt = cache.get(n);
    if (!stmt) {
      stmt = this.sqlite.prepare(text(Array(n).fill('?').join(', '))) as Statement<string[]>;
      cache.set(n, stmt);
    }
    return stmt;
  }
}
