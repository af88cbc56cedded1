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

/** Who sets a heart: the guest's id, and the address when the request carried no guest cookie. */
export interface HeartGiver {
  guestId: string;
  /** Set for a request without a guest cookie (its guestId is brand new): the limit counts by it. */
  anonymousAddress?: string;
}

/** The row that notes an address's heart given without a guest cookie; it counts for nothing. */
const addressMark = (address: string) => `address:${address}`;

/**
 * Guests' hearts: one per guest (the wedding_guest cookie) and photo, on visible photos only.
 * The photo's count moves in the same transaction as the guest's row, so the gallery reads a
 * number instead of counting rows, and a repeated call changes nothing. A request without a
 * guest cookie would be a new guest each time: its heart counts once per photo and address (a
 * second row, not counted, marks the address), and without a cookie it cannot take one back.
 */
export class HeartsService {
  constructor(private readonly db: Kysely<DB>) {}

  set(photoId: string, who: HeartGiver, hearted: boolean): Promise<HeartState> {
    return this.db.transaction().execute(async (tx) => {
      const photos = new PhotosRepo(tx);
      const photo = await photos.get(photoId);
      // A hidden photo is as unknown to guests as a photo that does not exist.
      if (!photo || photo.is_visible !== 1) throw notFound(PHOTO_NOT_FOUND);
      const hearts = new HeartsRepo(tx);
      if (hearted && who.anonymousAddress !== undefined && !(await hearts.add(photo.id, addressMark(who.anonymousAddress)))) {
        return { hearted, hearts: photo.hearts };
      }
      const changed = hearted ? await hearts.add(photo.id, who.guestId) : await hearts.remove(photo.id, who.guestId);
      const count = changed ? await photos.addHearts(photo.id, hearted ? 1 : -1) : photo.hearts;
      return { hearted, hearts: count };
    });
  }
}
