import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Shot } from './grouping.js';

export type PlacedShot = Shot & { group: string | null };

/** Reads of the photos' similar-shot columns (photos.repo.ts writes them). */
export class SimilarRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private shots() {
    return this.db
      .selectFrom('photos')
      .select(['id', 'phash', 'shot_at', 'similar_group'])
      .where('phash', 'is not', null)
      .where('shot_at', 'is not', null);
  }

  private static placed(r: { id: string; phash: string | null; shot_at: number | null; similar_group: string | null }): PlacedShot {
    return { id: r.id, hash: r.phash!, at: r.shot_at!, group: r.similar_group };
  }

  async get(id: string): Promise<{ shot: PlacedShot | null; group: string | null } | undefined> {
    const r = await this.db.selectFrom('photos').select(['id', 'phash', 'shot_at', 'similar_group']).where('id', '=', id).executeTakeFirst();
    if (!r) return undefined;
    return { shot: r.phash && r.shot_at !== null ? SimilarRepo.placed(r) : null, group: r.similar_group };
  }

  /** Measured photos taken between `from` and `to` (epoch ms). */
  async between(from: number, to: number): Promise<PlacedShot[]> {
    const rows = await this.shots().where('shot_at', '>=', from).where('shot_at', '<=', to).execute();
    return rows.map(SimilarRepo.placed);
  }

  async members(group: string): Promise<PlacedShot[]> {
    const rows = await this.db.selectFrom('photos').select(['id', 'phash', 'shot_at', 'similar_group']).where('similar_group', '=', group).execute();
    return rows.filter((r) => r.phash && r.shot_at !== null).map(SimilarRepo.placed);
  }
}
