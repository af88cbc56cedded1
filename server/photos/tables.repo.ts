import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/open.js';
import { LISTED } from './gallery.repo.js';
import { GALLERY_COLUMNS, type GalleryRow } from './photos.mappers.js';

/**
 * The public gallery by table (read-only): one table's photos newest first (uploads made from its
 * QR sign), and how many listed photos each table has. The index photos_table_order serves both;
 * the counts are kept until a visible photo changes (the wall and the dashboard ask often).
 */
export class TablesRepo {
  private readonly page: Statement<[number, number, number]>;
  private readonly perTable: Statement<[]>;
  private readonly galleryVersion: Statement<[]>;
  private counts = { mark: -1, byTable: new Map<number, number>() };

  constructor(sqlite: Sqlite) {
    const where = `FROM photos WHERE table_number = ? AND ${LISTED}`;
    this.page = sqlite.prepare(`SELECT ${GALLERY_COLUMNS.join(', ')} ${where} ORDER BY upload_timestamp DESC, id DESC LIMIT ? OFFSET ?`);
    this.perTable = sqlite.prepare(`SELECT table_number, count(*) AS n FROM photos WHERE table_number IS NOT NULL AND ${LISTED} GROUP BY table_number`);
    // Bumped by triggers whenever a visible photo is inserted, updated or deleted (see gallery.repo.ts).
    this.galleryVersion = sqlite.prepare(`SELECT n FROM gallery_version WHERE id = 1`).pluck();
  }

  list(table: number, limit: number, offset: number): GalleryRow[] {
    return this.page.all(table, limit, offset) as GalleryRow[];
  }

  total(table: number): number {
    return this.countsByTable().get(table) ?? 0;
  }

  /** Listed photos per table number (tables without photos are absent). */
  countsByTable(): ReadonlyMap<number, number> {
    const mark = this.galleryVersion.get() as number;
    if (this.counts.mark !== mark) {
      const rows = this.perTable.all() as { table_number: number; n: number }[];
      this.counts = { mark, byTable: new Map(rows.map((r) => [r.table_number, r.n])) };
    }
    return this.counts.byTable;
  }
}
