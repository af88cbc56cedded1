import type { GalleryItem } from '../../../server/photos/photos.mappers';

/** A visible photo or video as GET /api/photos and the photo-visible event carry it. */
export type WallItem = GalleryItem;

export const isVideo = (item: WallItem) => item.content_type.startsWith('video/');
