import type { GalleryItem, GalleryPagination, GalleryResponse, HeartResponse, Stats, StatsResponse } from '../../common/api-types';
import { t } from '../i18n';
import { fetchFirst, request } from './http';

/** GET /api/photos as the page uses it: a failure is success false with SPEC's message. */
export interface PhotosPage {
  success: boolean;
  photos: GalleryItem[];
  pagination: GalleryPagination;
  error?: string;
  /** The gallery is closed until then (ISO 8601). */
  opens_at?: string;
}

export const PAGE_SIZE = 20;

export const EMPTY_STATS: Stats = { total_photos: 0, total_size_mb: 0, media_breakdown: { images: 0, videos: 0 }, cameras: [], unique_devices: 0, challenges: [] };

/**
 * GET /api/photos (SPEC §7): a failure becomes an empty list with success false and SPEC's
 * message, so the page decides between a toast and the error screen. `only`: which photos and
 * in which order, as the address says it (`moment=...`, `sort=loved`, `highlights=true`).
 */
export async function fetchPhotos(offset: number, limit = PAGE_SIZE, only?: string | null): Promise<PhotosPage> {
  const empty = (error: string): PhotosPage => ({ success: false, photos: [], pagination: { total: 0, limit, offset, has_more: false }, error });
  try {
    const res = await fetchFirst(`/api/photos?limit=${limit}&offset=${offset}${only ? '&' + only : ''}`);
    if (!res.ok) return empty(t('gallery.fetch_failed', { status: res.statusText || res.status }));
    const data = (await res.json()) as Partial<GalleryResponse>;
    if (!data.success || !Array.isArray(data.photos)) return empty(t('gallery.load_failed'));
    return { success: true, photos: data.photos, pagination: { total: 0, limit, offset, has_more: false, ...data.pagination }, opens_at: data.opens_at };
  } catch {
    return empty(t('gallery.load_failed'));
  }
}

/** This guest's heart on a photo (PUT) or no longer (DELETE); answers the photo's count. */
export const sendHeart = (id: string, on: boolean) => request<HeartResponse>(on ? 'PUT' : 'DELETE', `/api/photos/${id}/heart`);

/** GET /api/stats (SPEC §8: failures are only logged; the display stays at zero). */
export async function fetchStats(): Promise<Stats> {
  try {
    const res = await fetchFirst('/api/stats');
    if (!res.ok) throw new Error(`stats ${res.status}`);
    const data = (await res.json()) as Partial<StatsResponse>;
    if (!data.success || !data.stats) throw new Error('stats answer without stats');
    return { ...EMPTY_STATS, ...data.stats };
  } catch (err) {
    console.error('Could not load the collection stats', err);
    return EMPTY_STATS;
  }
}
