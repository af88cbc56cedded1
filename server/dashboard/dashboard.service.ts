import type { Kysely } from 'kysely';
import { latestActivity, type ActivityItem } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/middleware.js';
import type { Permissions } from '../auth/permissions.js';
import type { Config } from '../config.js';
import type { DB } from '../db/schema.js';
import { photoRowToAdminPhoto, type AdminPhoto } from '../photos/photos.mappers.js';
import type { PhotosService } from '../photos/photos.service.js';
import type { UsersRepo } from '../users/users.repo.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const TREND_DAYS = 30;
export const RECENT_DAYS = 7;
export const RECENT_PHOTOS = 6;
export const TOP_CAMERAS = 8;

export interface DashboardStats {
  total_photos: number;
  visible_photos: number;
  pending_photos: number;
  recent_uploads: number;
  /** Same window as recent_uploads: the "+N this week" trend. */
  uploads_this_week: number;
  storage_used: number;
  storage_limit: number | null;
  total_users?: number;
  active_users?: number;
  admin_users?: number;
  family_users?: number;
}

export interface Dashboard {
  stats: DashboardStats;
  chart_data: { uploads_by_day: { date: string; uploads: number }[]; camera_stats: { name: string; value: number }[] };
  recent_activity: ActivityItem[];
  recent_photos: AdminPhoto[];
  user_permissions: Permissions;
}

/** The last `days` UTC dates up to and including today's, oldest first. */
export function lastDays(days: number, now = new Date()): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Top cameras, the rest summed as "Other", so the pie chart stays readable. */
export function topCameras(cameras: { name: string; count: number }[], top = TOP_CAMERAS): { name: string; value: number }[] {
  const head = cameras.slice(0, top).map((c) => ({ name: c.name, value: c.count }));
  const rest = cameras.slice(top).reduce((n, c) => n + c.count, 0);
  return rest ? [...head, { name: 'Other', value: rest }] : head;
}

export class DashboardService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly config: Config,
    private readonly photos: PhotosService,
    private readonly users: UsersRepo,
  ) {}

  async build(user: AuthUser, now = new Date()): Promise<Dashboard> {
    const days = lastDays(TREND_DAYS, now);
    const weekAgo = new Date(now.getTime() - RECENT_DAYS * DAY_MS).toISOString();
    const [totals, recent, perDay, cameras, used, limit, activity, newest, userStats] = await Promise.all([
      this.photos.repo.totals(),
      this.photos.repo.countSince(weekAgo),
      this.photos.repo.uploadsPerDay(`${days[0]}T00:00:00Z`),
      this.photos.cameraStats(),
      this.photos.disk.used(),
      this.photos.disk.limit(this.config.storageLimitBytes),
      latestActivity(this.db, 20),
      this.photos.repo.listAdmin('all', RECENT_PHOTOS, 0),
      user.permissions.can_manage_users ? this.users.stats() : undefined,
    ]);
    return {
      stats: {
        total_photos: totals.total,
        visible_photos: totals.visible,
        pending_photos: totals.total - totals.visible,
        recent_uploads: recent,
        uploads_this_week: recent,
        storage_used: used,
        storage_limit: limit,
        ...(userStats ?? {}),
      },
      chart_data: {
        uploads_by_day: days.map((date) => ({ date, uploads: perDay.get(date) ?? 0 })),
        camera_stats: topCameras(cameras),
      },
      recent_activity: activity,
      recent_photos: newest.map(photoRowToAdminPhoto),
      user_permissions: user.permissions,
    };
  }
}
