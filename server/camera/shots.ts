import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { AppError } from '../errors.js';
import { GuestsRepo } from '../guests/guests.repo.js';
import type { ShotGate } from '../uploads/store.js';

/** What the shot limit needs of the settings. */
export interface ShotSettings {
  get(): Promise<{ shot_limit: number | null }>;
}

/**
 * The disposable-camera game: with `shot_limit` set, each guest (their cookie) adds at most that
 * many photos and videos. A guest's shots are the photos they sent and those whose bytes they
 * sent again (duplicates count), so a photo taken back or deleted gives its shot back.
 * Signed-in users are not limited (the routes tell the uploads so).
 */
export class Shots implements ShotGate {
  private readonly guests: GuestsRepo;

  constructor(
    db: Kysely<DB>,
    private readonly settings: ShotSettings,
  ) {
    this.guests = new GuestsRepo(db);
  }

  /** The limit, and how many shots guest `guestId` has left; both null when guests are not limited. */
  async left(guestId: string | null): Promise<{ shot_limit: number | null; shots_left: number | null }> {
    const limit = (await this.settings.get()).shot_limit ?? null;
    if (limit === null) return { shot_limit: null, shots_left: null };
    const used = guestId ? await this.guests.countByGuest(guestId) : 0;
    return { shot_limit: limit, shots_left: Math.max(0, limit - used) };
  }

  async admit(guestId: string): Promise<void> {
    const { shot_limit, shots_left } = await this.left(guestId);
    if (shot_limit !== null && shots_left === 0) {
      throw new AppError('shot_limit_reached', 'errors.uploads.shot_limit_reached', { count: shot_limit }, { shot_limit, shots_left: 0 });
    }
  }
}
