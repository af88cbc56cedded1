import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { notFound } from '../errors.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import { PHOTO_NOT_FOUND } from '../photos/photos.service.js';
import { HeartsRepo } from './hearts.repo.js';

export interface HeartState {
  hearted: boolean;
  hearts: number;
}

/**
 * Guests' hearts: one per guest (the wedding_guest cookie) and photo, on visible photos only.
 * The photo's count moves in the same transaction as the guest's row, so the gallery reads a
 * number instead of counting rows, and a repeated call changes nothing.
 */
export class HeartsService {
  constructor(private readonly db: Kysely<DB>) {}

  set(photoId: string, guestId: string, hearted: boolean): Promise<HeartState> {
    return this.db.transaction().execute(async (tx) => {
      const photos = new PhotosRepo(tx);
      const photo = await photos.get(photoId);
      // A hidden photo is as unknown to guests as a photo that does not exist.
      if (!photo || photo.is_visible !== 1) throw notFound(PHOTO_NOT_FOUND);
      const hearts = new HeartsRepo(tx);
      const changed = hearted ? await hearts.add(photo.id, guestId) : await hearts.remove(photo.id, guestId);
      const count = changed ? await photos.addHearts(photo.id, hearted ? 1 : -1) : photo.hearts;
      return { hearted, hearts: count };
    });
  }
}
