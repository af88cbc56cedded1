import type { Kysely } from 'kysely';
import { recordActivity } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/middleware.js';
import type { AppContext } from '../context.js';
import type { DB, PhotoRow } from '../db/schema.js';
import type { EventBus } from '../events/bus.js';
import { HttpError, notFound } from '../http/errors.js';
import { log } from '../log.js';
import type { Processing } from '../processing/index.js';
import { cameraName, photoRowToAdminPhoto, photoRowToGalleryItem, type AdminPhoto } from './photos.mappers.js';
import { DiskUsage, removePhotoFiles } from './photo-files.js';
import { PhotosRepo, type AdminFilter } from './photos.repo.js';

export const PHOTO_NOT_FOUND = 'Photo not found.';

export interface PublicStats {
  total_photos: number;
  total_size_mb: number;
  media_breakdown: { images: number; videos: number };
  cameras: { name: string; count: number }[];
  unique_devices: number;
}

const userName = (u: AuthUser) => u.full_name || u.username;
const isVideo = (r: Pick<PhotoRow, 'content_type'>) => r.content_type.startsWith('video/');

/** The rules about photos once they are stored: reading, visibility, deletion, re-processing. */
export class PhotosService {
  readonly repo: PhotosRepo;
  readonly disk: DiskUsage;
  private readonly db: Kysely<DB>;

  constructor(
    private readonly ctx: AppContext,
    private readonly bus: EventBus,
    private readonly processing: Processing,
  ) {
    this.db = ctx.db;
    this.repo = new PhotosRepo(ctx.db, ctx.sqlite);
    this.disk = new DiskUsage(ctx.paths, () => this.repo.storageSignature());
  }

  gallery(limit: number, offset: number) {
    const rows = this.repo.listVisible(limit, offset);
    const total = this.repo.countVisible();
    return {
      photos: rows.map(photoRowToGalleryItem),
      pagination: { total, limit, offset, has_more: offset + rows.length < total },
    };
  }

  async stats(): Promise<PublicStats> {
    const [t, counts] = await Promise.all([this.repo.totals(), this.cameraStats()]);
    return {
      total_photos: t.total,
      total_size_mb: Math.round((t.bytes / 1_048_576) * 100) / 100,
      media_breakdown: { images: t.total - t.videos, videos: t.videos },
      cameras: counts,
      unique_devices: counts.length,
    };
  }

  /** Cameras by display name, most used first (rows differing only in make spelling merge). */
  async cameraStats(): Promise<{ name: string; count: number }[]> {
    const byName = new Map<string, number>();
    for (const r of await this.repo.cameraCounts()) {
      const name = cameraName(r.camera_make, r.camera_model);
      if (name) byName.set(name, (byName.get(name) ?? 0) + Number(r.n));
    }
    return [...byName].map(([name, count]) => ({ name, count })).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  }

  async adminList(filter: AdminFilter, page: number, perPage: number) {
    const [rows, total] = await Promise.all([this.repo.listAdmin(filter, perPage, (page - 1) * perPage), this.repo.countAdmin(filter)]);
    const pages = Math.ceil(total / perPage);
    return {
      photos: rows.map(photoRowToAdminPhoto),
      pagination: { page, per_page: perPage, pages, total, has_prev: page > 1, has_next: page < pages },
    };
  }

  async get(id: string): Promise<PhotoRow> {
    const row = await this.repo.byId(id);
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
      if (visible) await this.bus.photoVisible(photoRowToGalleryItem(r));
      else await this.bus.photoHidden(r.id);
    }
    if (!visible || !changed.length) return;
    const text = changed.length === 1 ? `Approved "${changed[0].original_filename}"` : `Approved ${changed.length} photos`;
    await recordActivity(this.db, 'approval', text, userName(user));
  }

  async delete(id: string, user: AuthUser): Promise<PhotoRow> {
    const row = await this.repo.delete(id);
    if (!row) throw notFound(PHOTO_NOT_FOUND);
    await removePhotoFiles(this.ctx.paths, row);
    this.disk.invalidate();
    if (row.is_visible) await this.bus.photoHidden(row.id);
    await recordActivity(this.db, 'other', `Deleted "${row.original_filename}"`, userName(user));
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
        if (!(err instanceof HttpError)) log.error(`Deleting photo ${id} failed`, err);
        failed.push({ id, error: err instanceof HttpError ? err.message : 'Could not delete this photo.' });
      }
    }
    return { deleted, failed_deletes: failed };
  }

  async rotate(id: string, degrees: 90 | 180 | 270): Promise<AdminPhoto> {
    const row = await this.get(id);
    if (isVideo(row)) throw new HttpError(400, 'Videos cannot be rotated.');
    await this.reprocess(() => this.processing.rotate(row.id, degrees));
    return photoRowToAdminPhoto(await this.get(id));
  }

  async regenerate(id: string): Promise<AdminPhoto> {
    const row = await this.get(id);
    await this.reprocess(() => this.processing.regenerate(row.id));
    this.disk.invalidate();
    return photoRowToAdminPhoto(await this.get(id));
  }

  /** One photo at a time: thumbnails are CPU-heavy and guests keep uploading meanwhile. */
  async regenerateAll() {
    const stats = { processed: 0, succeeded: 0, failed: 0 };
    for (const id of await this.repo.allIds()) {
      stats.processed++;
      try {
        await this.processing.regenerate(id);
        stats.succeeded++;
      } catch (err) {
        stats.failed++;
        log.warn(`Regenerating derivatives of ${id} failed: ${(err as Error)?.message ?? err}`);
      }
    }
    this.disk.invalidate();
    return stats;
  }

  /** Processing errors are readable sentences about the file: answered as 422, not a generic 500. */
  private async reprocess(op: () => Promise<void>): Promise<void> {
    try {
      await op();
    } catch (err) {
      if (err instanceof HttpError) throw err;
      const message = err instanceof Error && err.message ? err.message : 'The photo could not be processed.';
      throw new HttpError(422, message);
    }
  }
}
