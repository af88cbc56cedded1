import type { Kysely } from 'kysely';
import type { MyUpload, UploaderCount } from '../../common/api-types.js';
import { recordActivity } from '../activity/activity.repo.js';
import type { DataPaths } from '../context.js';
import type { DB } from '../db/schema.js';
import { notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { thumbnailUrl } from '../photos/photos.mappers.js';
import { takeBackPhoto } from '../photos/photo-removal.js';
import { GuestsRepo, type MyUploadRow } from './guests.repo.js';
import { msg } from '../../common/languages.js';

export interface GuestsDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  bus: EventBus;
}

/** The same answer for a photo that is not there and one that belongs to someone else. */
export const NOT_YOUR_UPLOAD = 'errors.photos.not_found';

const toMyUpload = (r: MyUploadRow): MyUpload => ({
  id: r.id,
  original_filename: r.original_filename,
  content_type: r.content_type,
  status: r.status,
  is_visible: r.is_visible === 1,
  thumbnail_url: thumbnailUrl(r),
  upload_timestamp: r.upload_timestamp,
  uploader_name: r.uploader_name,
});

/** Guests by name: a guest's own uploads (list, take back) and the names guests gave. */
export class GuestsService {
  private readonly repo: GuestsRepo;

  constructor(private readonly deps: GuestsDeps) {
    this.repo = new GuestsRepo(deps.db);
  }

  async myUploads(guestId: string, limit: number, offset: number) {
    const [rows, total] = await Promise.all([this.repo.listByGuest(guestId, limit, offset), this.repo.countByGuest(guestId)]);
    return {
      photos: rows.map(toMyUpload),
      pagination: { total, limit, offset, has_more: offset + rows.length < total },
    };
  }

  /**
   * Takes one of this guest's photos back: deleted as an admin delete would, unless another
   * guest's upload of the same bytes made it theirs too (then it stays, theirs alone). Anyone
   * else's is not_found, untouched.
   */
  async deleteMine(guestId: string, id: string): Promise<void> {
    const taken = await takeBackPhoto(this.deps, id, guestId);
    if (!taken) throw notFound(NOT_YOUR_UPLOAD);
    if (!taken.deleted) return;
    const row = taken.row;
    const line = row.uploader_name
      ? msg('activity.guest_deleted_named', { name: row.uploader_name, file: row.original_filename })
      : msg('activity.guest_deleted', { file: row.original_filename });
    await recordActivity(this.deps.db, 'other', line, row.uploader_name);
  }

  uploaders(limit?: number): Promise<UploaderCount[]> {
    return this.repo.uploaders(limit);
  }
}
