import type { PhotoRow, PhotoUpdate } from '../db/schema.js';

/**
 * The photos table as processing uses it: the photos' repository (photos/photos.repo.ts, the
 * table's only writer) is handed in by server.ts, so processing reads and fills in rows without
 * depending on the photos feature that depends on it.
 */
export interface PhotoRows {
  get(id: string): Promise<PhotoRow | undefined>;
  /** Writes what processing found out and made: metadata, derivatives' paths, status. */
  updateMedia(id: string, patch: PhotoUpdate): Promise<void>;
  /** The photo could not be processed: status 'error' with the reason. */
  markError(id: string, message: string): Promise<void>;
  /** Every photo, oldest upload first. */
  allIds(): Promise<string[]>;
  /** Processed images without similar-shot and quality measures yet. */
  unmeasuredIds(limit?: number): Promise<string[]>;
}
