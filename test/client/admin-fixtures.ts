import type { AdminPhoto, DashboardResponse, DashboardStats, GalleryItem } from '../../common/api-types.js';
import { api, meFor, permsFor, type RoleName } from '../helpers/admin-render.js';

let seq = 0;
export function photo(over: Partial<AdminPhoto> = {}): AdminPhoto {
  seq++;
  return {
    id: `p${seq}`,
    original_filename: `IMG_${seq}.jpg`,
    thumbnail_url: `/media/thumb/p${seq}.jpg`,
    display_url: `/media/display/p${seq}.jpg`,
    content_type: 'image/jpeg',
    file_size: 2_500_000,
    width: 4000,
    height: 3000,
    duration: null,
    upload_timestamp: '2025-06-07T20:00:00Z',
    date_taken: null,
    is_visible: true,
    uploader_name: null,
    camera_make: 'Canon',
    camera_model: 'Canon EOS 40D',
    status: 'complete',
    processing_error: null,
    approved_at: null,
    waiting_for: null,
    hearts: 0,
    highlighted: false,
    similar_group: null,
    similar_count: 1,
    quality_flags: [],
    sharpness: null,
    ...over,
  };
}

/** Also null where the real server always sends a number: the client's fallbacks are tested too. */
type StatsOverride = Partial<{ [K in keyof DashboardStats]: DashboardStats[K] | null }>;

export function dashboard(role: RoleName, over: StatsOverride = {}, photos: AdminPhoto[] = [photo({ is_visible: false }), photo()]): DashboardResponse {
  const admin = role === 'admin';
  return {
    success: true,
    stats: {
      total_photos: 12,
      visible_photos: 9,
      pending_photos: 3,
      recent_uploads: 4,
      uploads_this_week: 5,
      storage_used: 1_610_612_736,
      storage_limit: 10 * 1024 ** 3,
      pending_guestbook: 0,
      total_guestbook: 0,
      ...(admin ? { total_users: 4, active_users: 3, admin_users: 1, family_users: 2 } : {}),
      ...over,
    } as DashboardStats,
    chart_data: {
      uploads_by_day: [
        { date: '2025-06-06', uploads: 2 },
        { date: '2025-06-07', uploads: 10 },
      ],
      camera_stats: [
        { name: 'Canon EOS 40D', value: 3 },
        { name: 'iPhone 15', value: 1 },
      ],
    },
    recent_activity: [
      { id: 1, type: 'upload', description: 'IMG_1.jpg was uploaded', timestamp: '2025-06-07T20:00:00Z', user_name: null },
      { id: 2, type: 'login', description: 'admin signed in', timestamp: '2025-06-07T21:00:00Z', user_name: 'admin' },
    ],
    recent_photos: photos,
    top_contributors: [],
    challenge_counts: [],
    user_permissions: permsFor(role),
    missing_tools: [],
  };
}

/** Signs the fake server in as `role`, with a dashboard and a photo list. */
export function serveAs(role: RoleName, photos: AdminPhoto[] = [photo({ is_visible: false }), photo()]) {
  api.reset();
  api.on('GET /admin/api/me', { body: meFor(role) });
  api.on('GET /admin/api/dashboard', { body: dashboard(role, {}, photos) });
  api.on('GET /admin/api/photos', (c) => {
    const pending = c.query.get('pending') === 'true';
    const list = pending ? photos.filter((p) => !p.is_visible) : c.query.get('show_all') === 'false' ? photos.filter((p) => p.is_visible) : photos;
    return { body: { success: true, photos: list, pagination: { page: 1, pages: 1, total: list.length, has_prev: false, has_next: false } } };
  });
}

/** A gallery item as GET /api/photos lists it. */
export function galleryItem(i: number, p: Partial<GalleryItem> = {}): GalleryItem {
  return {
    id: `m${i}`,
    content_type: 'image/jpeg',
    thumbnail_url: `/media/thumb/m${i}.webp`,
    backblaze_url: `/media/original/m${i}.jpg`,
    original_filename: `IMG_${i}.jpg`,
    upload_timestamp: '2025-06-07T21:15:00Z',
    date_taken: '2025-06-07T20:01:00Z',
    camera_make: 'Canon',
    camera_model: 'Canon EOS 40D',
    width: 3072,
    height: 2048,
    moment: null,
    uploader_name: null,
    duration: null,
    hearts: 0,
    hearted: false,
    highlighted: false,
    challenge: null,
    table: null,
    ...p,
  };
}
