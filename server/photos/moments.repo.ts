import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/open.js';
import { WALL_CLOCK_GLOB, type MomentWindow } from '../settings/moments.js';
import { LISTED } from './gallery.repo.js';
import { GALLERY_COLUMNS, type GalleryRow } from './photos.mappers.js';

type Bounds = { start: number; end: number; wallStart: number; wallEnd: number };

/**
 * The public gallery filtered to one moment (read-only). The same rule as momentOf() in
 * settings/moments.ts, in SQL: the photo's time is its date taken, else its upload time, in
 * epoch ms; a wall-clock EXIF time is compared with the window's wall-clock bounds.
 */
export class MomentsRepo {
  private readonly page: Statement<[Bounds & { limit: number; offset: number }]>;
  private readonly count: Statement<[Bounds]>;
  private readonly galleryVersion: Statement<[]>;
  /** Totals per window until a visible photo changes: every guest's gallery asks for each moment's. */
  private totals = { mark: -1, byWindow: new Map<string, number>() };

  constructor(sqlite: Sqlite) {
    const timed = `SELECT ${GALLERY_COLUMNS.join(', ')},
        (julianday(coalesce(date_taken, upload_timestamp)) - 2440587.5) * 86400000.0 AS t,
        coalesce(date_taken GLOB '${WALL_CLOCK_GLOB}', 0) AS wall
      FROM photos WHERE ${LISTED}`;
    const inWindow = `t >= iif(wall, @wallStart, @start) AND t < iif(wall, @wallEnd, @end)`;
    this.page = sqlite.prepare(
      `SELECT ${GALLERY_COLUMNS.join(', ')} FROM (${timed}) WHERE ${inWindow} ORDER BY upload_timestamp DESC, id DESC LIMIT @limit OFFSET @offset`,
    );
    this.count = sqlite.prepare(`SELECT count(*) FROM (${timed}) WHERE ${inWindow}`).pluck() as Statement<[Bounds]>;
    // Bumped by triggers whenever a visible photo is inserted, updated or deleted (see gallery.repo.ts).
    this.galleryVersion = sqlite.prepare(`SELECT n FROM gallery_version WHERE id = 1`).pluck();
  }

  list(w: MomentWindow, limit: number, offset: number): GalleryRow[] {
    return this.page.all({ ...bounds(w), limit, offset }) as GalleryRow[];
  }

  total(w: MomentWindow): number {
    const mark = this.galleryVersion.get() as number;
    if (this.totals.mark !== mark) this.totals = { mark, byWindow: new Map() };
    const b = bounds(w);
    const key = `${b.start}:${b.end}:${b.wallStart}:${b.wallEnd}`;
    let n = this.totals.byWindow.get(key);
    if (n === undefined) {
      n = this.count.get(b) as number;
      if (this.totals.byWindow.size > 100) this.totals.byWindow.clear();
      this.totals.byWindow.set(key, n);
    }
    return n;
  }
}

const bounds = (w: MomentWindow): Bounds => ({ start: w.start, end: w.end, wallStart: w.wallStart, wallEnd: w.wallEnd });
