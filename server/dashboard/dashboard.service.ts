import type { Kysely } from 'kysely';
import type { Challenge, Dashboard, MissingTool, ToolName } from '../../common/api-types.js';
import type { ChannelState } from '../../common/security-types.js';
import type { OffsiteStatusView } from '../../common/offsite-types.js';
import { latestActivity } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/permissions.js';
import type { DB } from '../db/schema.js';
import { translate } from '../i18n/messages.js';
import { camerasByName } from '../photos/camera-stats.js';
import { photoRowToAdminPhoto } from '../photos/photos.mappers.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import type { UsersService } from '../users/users.service.js';
import { GuestsRepo } from '../guests/guests.repo.js';
import { DashboardRepo } from './dashboard.repo.js';
import type { DiskUsage } from './disk-usage.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const TREND_DAYS = 30;
export const RECENT_DAYS = 7;
export const RECENT_PHOTOS = 6;
export const TOP_CAMERAS = 8;
export const TOP_CONTRIBUTORS = 5;

// The dashboard answer is declared once, for server and client, in common/api-types.ts.
export type { Dashboard, DashboardStats } from '../../common/api-types.js';

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

export interface DashboardDeps {
  /** Stored media's bytes, shared with the storage limit's checks. */
  disk: DiskUsage;
  db: Kysely<DB>;
  users: UsersService;
  /** STORAGE_LIMIT_GB in bytes; undefined: the size of the filesystem holding DATA_DIR. */
  storageLimitBytes: number | undefined;
  /** Tools processing needs that are not installed. */
  missingTools: () => readonly ToolName[];
  /** How the notification channels fare (read from memory: never waits for a receiver). */
  notifyStates?: () => Promise<ChannelState[]>;
  /** The photo challenges, for their titles and order. */
  settings: { get(): Promise<{ challenges: Challenge[] }> };
  /** The off-site copy (its status puts the last problem into words with the function given). */
  offsite?: { status(words: (key: string, values?: Record<string, string | number>) => string): Promise<OffsiteStatusView> };
}

/** The admin dashboard: counts, trend, cameras, disk use, activity, newest photos, user statistics. */
export class DashboardService {
  private readonly repo: DashboardRepo;
  private readonly photos: PhotosRepo;
  private readonly guests: GuestsRepo;

  constructor(private readonly deps: DashboardDeps) {
    this.repo = new DashboardRepo(deps.db);
    this.photos = new PhotosRepo(deps.db);
    this.guests = new GuestsRepo(deps.db);
  }

  /** `lang`: the reader's language, for the activity lines. */
  async build(user: AuthUser, now = new Date(), lang = 'en'): Promise<Dashboard> {
    const days = lastDays(TREND_DAYS, now);
    const weekAgo = new Date(now.getTime() - RECENT_DAYS * DAY_MS).toISOString();
    const missing = this.deps.missingTools();
    const [totals, recent, perDay, cameraRows, used, limit, activity, newest, userStats, contributors, missingTools, notify, guestbook, perChallenge, settings] =
      await Promise.all([
      this.photos.totals(),
      this.repo.countSince(weekAgo),
      this.repo.uploadsPerDay(`${days[0]}T00:00:00Z`),
      this.photos.cameraCounts(),
      this.deps.disk.used(),
      this.deps.disk.limit(this.deps.storageLimitBytes),
      latestActivity(this.deps.db, 20, lang),
      this.photos.listAdmin('all', RECENT_PHOTOS, 0),
      user.permissions.can_manage_users ? this.deps.users.stats() : undefined,
      this.guests.uploaders(TOP_CONTRIBUTORS),
      this.missing(missing),
      user.permissions.can_edit_settings && this.deps.notifyStates ? this.deps.notifyStates() : undefined,
      this.repo.guestbookCounts(),
      this.repo.challengeCounts(),
      this.deps.settings.get(),
    ]);
    const offsite = await this.deps.offsite?.status((key, values) => translate(lang, key, values));
    return {
      stats: {
        total_photos: totals.total,
        visible_photos: totals.visible,
        pending_photos: totals.total - totals.visible,
        recent_uploads: recent,
        uploads_this_week: recent,
        storage_used: used,
        storage_limit: limit,
        pending_guestbook: guestbook.pending,
        total_guestbook: guestbook.total,
        ...(userStats ?? {}),
      },
      chart_data: {
        uploads_by_day: days.map((date) => ({ date, uploads: perDay.get(date) ?? 0 })),
        camera_stats: topCameras(camerasByName(cameraRows)),
      },
      recent_activity: activity,
      recent_photos: newest.map((r) => photoRowToAdminPhoto(r, missing)),
      top_contributors: contributors,
      challenge_counts: settings.challenges.map((c) => ({ id: c.id, title: c.title, total: 0, visible: 0, ...perChallenge.get(c.id) })),
      user_permissions: user.permissions,
      missing_tools: missingTools,
      ...(notify ? { notify_failures: notify.filter((c) => !c.ok) } : {}),
      ...(offsite?.configured ? { offsite } : {}),
    };
  }

  /** Each missing tool with what cannot be prepared without it and how many files wait for it. */
  private async missing(tools: readonly ToolName[]): Promise<MissingTool[]> {
    if (!tools.length) return [];
    const waiting = await this.repo.processingByKind();
    return tools.map((tool) => {
      const needed_for = tool === 'heif-convert' ? 'heic' : 'videos';
      return { tool, needed_for, waiting_files: waiting[needed_for] };
    });
  }
}
