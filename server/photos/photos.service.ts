import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/permissions.js';
import type { DataPaths } from '../context.js';
import type { Sqlite } from '../db/open.js';
import type { DB, PhotoRow } from '../db/schema.js';
import { AppError, invalid, notFound } from '../errors.js';
import type { EventBus } from '../events/bus.js';
import { log } from '../log.js';
import type { Processing } from '../processing/processing.service.js';
import { camerasByName } from './camera-stats.js';
import { GalleryRepo } from './gallery.repo.js';
import { photoRowToAdminPhoto, photoRowToGalleryItem, type AdminPhoto } from './photos.mappers.js';
import { removePhotoFiles } from './photo-files.js';
import type { Stats } from '../../common/api-types.js';
import { PhotosRepo, type AdminFilter } from './photos.repo.js';

export const PHOTO_NOT_FOUND = 'Photo not found.';
/** The upload status poll's answer for an unknown id (its sentence predates PHOTO_NOT_FOUND). */
export const NO_PHOTO_WITH_ID = 'No photo with this id.';

export interface PhotosDeps {
  paths: DataPaths;
  db: Kysely<DB>;
  sqlite: Sqlite;
  bus: EventBus;
  processing: Processing;
}

const userName = (u: AuthUser) => u.full_name || u.username;
const isVideo = (r: Pick<PhotoRow, 'content_type'>) => r.content_type.startsWith('video/');

/** The rules about photos once they are stored: reading, visibility, deletion, re-processing. */
export class PhotosService {
  private readonly repo: PhotosRepo;
  private readonly galleryRepo: GalleryRepo;

  constructor(private readonly deps: PhotosDeps) {
    this.repo = new PhotosRepo(deps.db);
    this.galleryRepo = new GalleryRepo(deps.sqlite);
  }

  gallery(limit: number, offset: number) {
    const rows = this.galleryRepo.listVisible(limit, offset);
    const total = this.galleryRepo.countVisible();
    return {
      photos: rows.map(photoRowToGalleryItem),
      pagination: { total, limit, offset, has_more: offset + rows.length < total },
    };
  }

  async stats(): Promise<Stats> {
    const [t, rows] = await Promise.all([this.repo.totals(), this.repo.cameraCounts()]);
    const cameras = camerasByName(rows);
    return {
      total_photos: t.total,
      total_size_mb: Math.round((t.bytes / 1_048_576) * 100) / 100,
      media_breakdown: { images: t.total - t.videos, videos: t.videos },
      cameras,
      unique_devices: cameras.length,
    };
  }

  /** Where processing of a just-uploaded photo stands (the guest page polls it). */
  async status(id: string): Promise<PhotoRow['status']> {
    const row = await this.repo.status(id);
    if (!row) throw notFound(NO_PHOTO_WITH_ID);
    return row.status;
  }

  async adminList(filter: AdminFilter, page: number, perPage: number) {
    const [rows, total] = await Promise.all([this.repo.listAdmin(filter, perPage, (page - 1) * perPage), this.repo.countAdmin(filter)]);
    const pages = Math.ceil(total / perPage);
    return {
      photos: rows.map(photoRowToAdminPhoto),
      pagination: { page, per_page: perPage, pages, total, has_prev: page > 1, has_next: page < pages },
    };
  }

  /** The stored row, or undefined (media routes answer an unknown id their own way). */
  find(id: string): Promise<PhotoRow | undefined> {
    return this.repo.get(id);
  }

  async get(id: string): Promise<PhotoRow> {
    const row = await this.repo.get(id);
    if (!row) throw notFound(PHOTO_NOT_FOUND);
    return row;
  }

  async setVisible(id: string, visible: boolean, user: AuthUser): Promise<AdminPhoto> {
    const row = await this.get(id);
    const [changed] = await this.repo.setVisibleMany([row.id], visible, new Date().toISOString());
    if (changed) await this.announce([changed], visible, user);
    return photoRowToAdminPhoto(changed ?? (await this.get(id)));
  }

  async toggle(id: string, user: AuthUser): Promise<AdminPhoto> {
    const row = await this.get(id);
    return this.setVisible(id, row.is_visible !== 1, user);
  }

  async bulkVisibility(ids: string[], visible: boolean, user: AuthUser) {
    const found = await this.repo.byIds(ids);
    const known = new Set(found.map((r) => r.id));
    const changed = await this.repo.setVisibleMany([...known], visible, new Date().toISOString());
    await this.announce(changed, visible, user);
    return { updated: known.size, not_found: ids.filter((id) => !known.has(id)) };
  }

  /** Tells live screens, and logs approvals (a hidden photo an admin made visible). */
  private async announce(changed: PhotoRow[], visible: boolean, user: AuthUser): Promise<void> {
    for (const r of changed) {
      if (visible) await this.deps.bus.photoVisible(photoRowToGalleryItem(r));
      else await this.deps.bus.photoHidden(r.id);
    }
    if (!visible || !changed.length) return;
    const text = changed.length === 1 ? `Approved "${changed[0].original_filename}"` : `Approved ${changed.length} photos`;
    await recordActivity(this.deps.db, 'approval', text, userName(user));
  }

  async delete(id: string, user: AuthUser): Promise<PhotoRow> {
    const row = await this.repo.delete(id);
    if (!row) throw notFound(PHOTO_NOT_FOUND);
    await removePhotoFiles(this.deps.paths, row);
    if (row.is_visible) await this.deps.bus.photoHidden(row.id);
    await recordActivity(this.deps.db, 'other', `Deleted "${row.original_filename}"`, userName(user));
    return row;
  }

  async bulkDelete(ids: string[], user: AuthUser) {
    const failed: { id: string; error: string }[] = [];
    let deleted = 0;
    for (const id of ids) {
      try {
        await this.delete(id, user);
        deleted++;
      } catch (err) {
        if (!(err instanceof AppError)) log.error(`Deleting photo ${id} failed`, err);
        failed.push({ id, error: err instanceof AppError ? err.message : 'Could not delete this photo.' });
      }
    }
    return { deleted, failed_deletes: failed };
  }

  /** Runs as a processing job; its errors (not_found, unprocessable...) pass through as they are. */
  async rotate(id: string, degrees: 90 | 180 | 270): Promise<AdminPhoto> {
    const row = await this.get(id);
    if (isVideo(row)) throw invalid('Videos cannot be rotated.');
    await this.deps.processing.rotate(row.id, degrees);
    return photoRowToAdminPhoto(await this.get(id));
  }

  async regenerate(id: string): Promise<AdminPhoto> {
    const row = await this.get(id);
    await this.deps.processing.regenerate(row.id);
    return photoRowToAdminPhoto(await this.get(id));
  }

  /** Every photo's derivatives rebuilt, one job after another in the processing queue. */
  regenerateAll(): Promise<{ processed: number; succeeded: number; failed: number }> {
    return this.deps.processing.regenerateAll();
  }
}
