import type { Statement } from 'better-sqlite3';
import type { Sqlite } from '../db/open.js';
import { LISTED } from './gallery.repo.js';
import { GALLERY_COLUMNS, type GalleryRow } from './photos.mappers.js';

/**
 * The public gallery by photo challenge (read-only): one challenge's photos newest first, and
 * how many listed photos each challenge has. The index photos_challenge_order (migration 0009)
 * serves both; the counts are kept until a visible photo changes, since every guest on /live asks.
 */
export class ChallengesRepo {
  private readonly page: Statement<[string, number, number]>;
  private readonly perChallenge: Statement<[]>;
  private readonly galleryVersion: Statement<[]>;
  private counts = { mark: -1, byId: new Map<string, number>() };

  constructor(sqlite: Sqlite) {
    const where = `FROM photos WHERE challenge_id = ? AND ${LISTED}`;
    this.page = sqlite.prepare(`SELECT ${GALLERY_COLUMNS.join(', ')} ${where} ORDER BY upload_timestamp DESC, id DESC LIMIT ? OFFSET ?`);
    this.perChallenge = sqlite.prepare(`SELECT challenge_id, count(*) AS n FROM photos WHERE challenge_id IS NOT NULL AND ${LISTED} GROUP BY challenge_id`);
    // Bumped by triggers whenever a visible photo is inserted, updated or deleted (see gallery.repo.ts).
    this.galleryVersion = sqlite.prepare(`SELECT n FROM gallery_version WHERE id = 1`).pluck();
  }

  list(challengeId: string, limit: number, offset: number): GalleryRow[] {
    return this.page.all(challengeId, limit, offset) as GalleryRow[];
  }

  total(challengeId: string): number {
    return this.countsById().get(challengeId) ?? 0;
  }

  /** Listed photos per challenge id (ids without photos are absent). */
  countsById(): ReadonlyMap<string, number> {
    const mark = this.galleryVersion.get() as number;
    if (this.counts.mark !== mark) {
      const rows = this.perChallenge.all() as { challenge_id: string; n: number }[];
      this.counts = { mark, byId: new Map(rows.map((r) => [r.challenge_id, r.n])) };
    }
    return this.counts.byId;
  }
}
