import type { Area, Shared } from '../area.js';
import { dashboardRouter } from '../dashboard/dashboard.routes.js';
import { DashboardService } from '../dashboard/dashboard.service.js';
import { DownloadTokens } from './download-tokens.js';
import { mediaRouter } from './media.routes.js';
import { adminPhotosRouter, publicPhotosRouter } from './photos.routes.js';
import { PhotosService } from './photos.service.js';

export { photoRowToGalleryItem, photoRowToAdminPhoto, type GalleryItem, type AdminPhoto } from './photos.mappers.js';

/** Public gallery reads, media files, photo moderation and the admin dashboard. */
export function createPhotosArea(shared: Shared): Area & { photos: PhotosService; downloads: DownloadTokens } {
  const photos = new PhotosService(shared.ctx, shared.bus, shared.processing);
  const downloads = new DownloadTokens();
  const dashboard = new DashboardService(shared.ctx.db, shared.ctx.config, photos, shared.users.repo);
  return {
    photos,
    downloads,
    publicApi: [publicPhotosRouter(photos)],
    adminApi: [adminPhotosRouter(photos, downloads), dashboardRouter(dashboard)],
    root: [mediaRouter(shared.ctx.paths, photos.repo, downloads)],
  };
}
