import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import { groupShots, isSimilar, SIMILAR_WITHIN_MS } from './grouping.js';
import { SimilarRepo } from './similar.repo.js';

/**
 * Puts each newly measured photo into its group of similar shots: it joins (and merges) the
 * groups of every similar photo taken within two minutes. One photo at a time, so two photos
 * finishing together cannot name one group twice.
 */
export class SimilarShots {
  private readonly repo: SimilarRepo;
  private readonly photos: PhotosRepo;
  private queue: Promise<void> = Promise.resolve();

  constructor(db: Kysely<DB>) {
    this.repo = new SimilarRepo(db);
    this.photos = new PhotosRepo(db);
  }

  place(id: string): Promise<void> {
    const next = this.queue.then(() => this.placeNow(id));
    this.queue = next.catch(() => {});
    return next;
  }

  private async placeNow(id: string): Promise<void> {
    const me = await this.repo.get(id);
    if (!me) return;
    let group: string | null = null;
    if (me.shot) {
      const shot = me.shot;
      const near = (await this.repo.between(shot.at - SIMILAR_WITHIN_MS, shot.at + SIMILAR_WITHIN_MS)).filter((s) => s.id !== id && isSimilar(shot, s));
      if (near.length) {
        const groups = [...new Set(near.flatMap((s) => (s.group ? [s.group] : [])))].sort();
        const members = new Set([id, ...near.map((s) => s.id)]);
        for (const g of groups) for (const m of await this.repo.members(g)) members.add(m.id);
        // An existing group keeps its name; a new one is named after its first photo.
        group = groups[0] ?? [shot, ...near].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))[0].id;
        await this.photos.setSimilarGroup([...members], group);
      }
    }
    if (me.group && me.group !== group) {
      // The photo changed (rotated, re-measured): what is left of its old group may fall apart.
      if (group === null) await this.photos.setSimilarGroup([id], null);
      await this.resplit(me.group);
    }
  }

  /** Groups a group's photos again among themselves; those left alone leave it. */
  private async resplit(group: string): Promise<void> {
    const members = await this.repo.members(group);
    const parts = groupShots(members);
    const byName = new Map<string, string[]>();
    for (const m of members) {
      const g = parts.get(m.id) ?? null;
      if (g === null) await this.photos.setSimilarGroup([m.id], null);
      else byName.set(g, [...(byName.get(g) ?? []), m.id]);
    }
    for (const [name, ids] of byName) await this.photos.setSimilarGroup(ids, ids.includes(group) ? group : name);
  }
}
