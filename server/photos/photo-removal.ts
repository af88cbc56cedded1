import type { Kysely } from 'kysely';
import type { DataPaths } from '../context.js';
import type { DB, PhotoRow } from '../db/schema.js';
import { log } from '../log.js';
import { removePhotoFiles } from './photo-files.js';
import { PhotosRepo } from './photos.repo.js';

export interface RemovalDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  /** Live screens drop a visible photo that is gone. */
  bus: { photoHidden(id: string): Promise<unknown> };
}

/**
 * The files of a deleted photo, then the note that kept them from being adopted at start
 * (photos.repo `delete`): while any file is left, the note stays and the next start tries again.
 */
async function removeFilesOf(d: RemovalDeps, row: PhotoRow): Promise<void> {
  if (await removePhotoFiles(d.paths, row)) await new PhotosRepo(d.db).forgetRemoved(row.stored_path);
}

/**
 * Deletes a photo the one way an admin does: the row (with a note of its original, in the same
 * transaction), then the original and every derivative, then the wall is told. undefined: no such photo.
 */
export async function removePhoto(d: RemovalDeps, id: string): Promise<PhotoRow | undefined> {
  const row = await new PhotosRepo(d.db).delete(id);
  if (!row) return undefined;
  await removeFilesOf(d, row);
  if (row.is_visible) await d.bus.photoHidden(row.id);
  return row;
}

/**
 * A guest takes back a photo of theirs (in one transaction, so nothing else can change it in
 * between). It is deleted as an admin deletes it unless another guest's upload of the same bytes
 * was answered "duplicate": then it stays, theirs. `deleted`: whether the photo is gone;
 * undefined: not this guest's photo.
 */
export async function takeBackPhoto(d: RemovalDeps, id: string, guestId: string): Promise<{ row: PhotoRow; deleted: boolean } | undefined> {
  const taken = await new PhotosRepo(d.db).takeBack(id, guestId);
  if (!taken?.deleted) return taken;
  await removeFilesOf(d, taken.row);
  if (taken.row.is_visible) await d.bus.photoHidden(taken.row.id);
  return taken;
}

/**
 * At start: the files of photos deleted before a crash or a failed delete are removed now. The
 * notes kept the start-up sweep from adopting them in the meantime.
 */
export async function finishRemovals(d: Pick<RemovalDeps, 'db' | 'paths'>): Promise<number> {
  const repo = new PhotosRepo(d.db);
  let done = 0;
  for (const r of await repo.removedOriginals()) {
    if (await removePhotoFiles(d.paths, { id: r.photo_id, stored_path: r.stored_path, thumb_path: null, display_path: null })) {
      await repo.forgetRemoved(r.stored_path);
      done++;
    }
  }
  if (done) log.info(`Removed the files of ${done} photo(s) deleted before the last stop`);
  return done;
}
