import type { GalleryItem } from '../../server/photos/photos.mappers';

/** SPEC §3 "gallery media item", as the server's mapper makes it (a type-only import). */
export type { GalleryItem };

/** SPEC §3 "stats". */
export interface Stats {
  total_photos: number;
  total_size_mb: number;
  media_breakdown: { images: number; videos: number };
  cameras: { name: string; count: number }[];
  unique_devices: number;
}

export interface PhotosPage {
  success: boolean;
  photos: GalleryItem[];
  pagination: { total: number; limit: number; offset: number; has_more: boolean };
  error?: string;
}

export const PAGE_SIZE = 20;

export const EMPTY_STATS: Stats = { total_photos: 0, total_size_mb: 0, media_breakdown: { images: 0, videos: 0 }, cameras: [], unique_devices: 0 };

/**
 * GET /api/photos (SPEC §7): a failure becomes an empty list with success false and SPEC's
 * message, so the page decides between a toast and the error screen.
 */
export async function fetchPhotos(offset: number, limit = PAGE_SIZE): Promise<PhotosPage> {
  const empty = (error: string): PhotosPage => ({ success: false, photos: [], pagination: { total: 0, limit, offset, has_more: false }, error });
  try {
    const res = await fetch(`/api/photos?limit=${limit}&offset=${offset}`);
    if (!res.ok) return empty(`Failed to fetch photos: ${res.statusText || res.status}`);
    const data = (await res.json()) as Partial<PhotosPage>;
    if (!data.success || !Array.isArray(data.photos)) return empty('Failed to load photos');
    return { success: true, photos: data.photos, pagination: { total: 0, limit, offset, has_more: false, ...data.pagination } };
  } catch {
    return empty('Failed to load photos');
  }
}

/** GET /api/stats (SPEC §8: failures are only logged; the display stays at zero). */
export async function fetchStats(): Promise<Stats> {
  try {
    const res = await fetch('/api/stats');
    if (!res.ok) throw new Error(`stats ${res.status}`);
    const data = (await res.json()) as { success?: boolean; stats?: Stats };
    if (!data.success || !data.stats) throw new Error('stats answer without stats');
    return { ...EMPTY_STATS, ...data.stats };
  } catch (err) {
    console.error('Could not load the collection stats', err);
    return EMPTY_STATS;
  }
}
