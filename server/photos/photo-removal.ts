import type { Kysely } from 'kysely';
import type { DataPaths } from '../context.js';
import type { DB, PhotoRow } from '../db/schema.js';
import { removePhotoFiles } from './photo-files.js';
import { PhotosRepo } from './photos.repo.js';

export interface RemovalDeps {
  db: Kysely<DB>;
  paths: DataPaths;
  /** Live screens drop a visible photo that is gone. */
  bus: { photoHidden(id: string): Promise<unknown> };
}

/**
 * Deletes a photo the one way both an admin and its own guest do: the row, then the original
 * and every derivative, then the wall is told. With `guestId`, only that guest's photo goes
 * (in the same statement, so nothing else can be removed in between). undefined: nothing matched.
 */
export async function removePhoto(d: RemovalDeps, id: string, guestId?: string): Promise<PhotoRow | undefined> {
  const row = await new PhotosRepo(d.db).delete(id, guestId);
  if (!row) return undefined;
  await removePhotoFiles(d.paths, row);
  if (row.is_visible) await d.bus.photoHidden(row.id);
  return row;
}
