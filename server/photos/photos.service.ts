import { recordActivity } from '../activity/activity.repo.js';
import type { AuthUser } from '../auth/permissions.js';
import type { PhotoRow } from '../db/schema.js';
import { AppError, invalid, notFound } from '../errors.js';
import { log } from '../log.js';
import { challengeTitle } from '../settings/challenges.js';
import { momentOf, momentWindows, type MomentWindow } from '../settings/moments.js';
import { camerasByName } from './camera-stats.js';
import { GalleryAnswers } from './gallery-answers.js';
import { GalleryRepo } from './gallery.repo.js';
import { photoRowToAdminPhoto, photoRowToGalleryItem, withUploaderName, type AdminPhoto, type GalleryItem, type GalleryRow, type MediaUrls } from './photos.mappers.js';
import { removePhoto } from './photo-removal.js';
import type { Stats, WeddingSettings } from '../../common/api-types.js';
import { ChallengesRepo } from './challenges.repo.js';
import type { GalleryQuery, PhotosDeps } from './photos.types.js';
import { TablesRepo } from './tables.repo.js';
import { PhotosRepo, type AdminFilter, type AdminNarrowing } from './photos.repo.js';
import { MomentsRepo } from './moments.repo.js';
import { msg } from '../../common/languages.js';

export const PHOTO_NOT_FOUND = 'errors.photos.not_found';
/** The upload status poll's answer for an unknown id (its sentence predates PHOTO_NOT_FOUND). */
export const NO_PHOTO_WITH_ID = 'errors.photos.no_such_id';

export type { GalleryQuery, PhotosDeps };

const flagCount = (r: PhotoRow) => (r.quality_flags ? r.quality_flags.split(',').length : 0);
const bestFirst = (a: PhotoRow, b: PhotoRow) => flagCount(a) - flagCount(b) || (b.sharpness ?? 0) - (a.sharpness ?? 0);

const userName = (u: AuthUser) => u.full_name || u.username;
const isVideo = (r: Pick<PhotoRow, 'content_type'>) => r.content_type.startsWith('video/');

/** The rules about photos once they are stored: reading, visibility, deletion, re-processing. */
export class PhotosService {
  private readonly repo: PhotosRepo;
  private readonly galleryRepo: GalleryRepo;
  private readonly momentsRepo: MomentsRepo;
  private readonly challengesRepo: ChallengesRepo;
  readonly tablesRepo: TablesRepo;
  /** The plain gallery's pages, serialized while nothing in them moved (GET /api/photos). */
  readonly answers: GalleryAnswers;

  constructor(private readonly deps: PhotosDeps) {
    this.repo = new PhotosRepo(deps.db);
    this.galleryRepo = new GalleryRepo(deps.sqlite);
    this.momentsRepo = new MomentsRepo(deps.sqlite);
    this.challengesRepo = new ChallengesRepo(deps.sqlite);
    this.tablesRepo = new TablesRepo(deps.sqlite);
    this.answers = new GalleryAnswers({
      repo: this.galleryRepo,
      settings: deps.settings,
      bucketServing: () => !!deps.media && !deps.media.idle?.(),
      build: async (limit, offset) => ({ success: true, ...(await this.gallery(limit, offset)) }),
    });
  }

  /**
   * A photo as guests see it: its moment, its challenge's title, its guest's name while names are
   * shown. `media`: its files from the bucket when it holds them. Live events never carry bucket
   * URLs: they are stored and replayed to walls that reconnect (up to a week later), when a signed
   * URL would have expired; the wall's list, reloaded every half hour, brings the bucket's.
   */
  private itemOf(r: GalleryRow, s: WeddingSettings, windows: readonly MomentWindow[], media?: MediaUrls | null): GalleryItem {
    return withUploaderName(photoRowToGalleryItem(r, momentOf(r, windows), challengeTitle(s.challenges, r.challenge_id), media), s.show_uploader_names);
  }

  /**
   * The public gallery, or one moment or one photo challenge of it. Until gallery_opens_at it is
   * an empty page that says when it opens; the wall reads the full list (`wall`).
   */
  async gallery(limit: number, offset: number, opts: GalleryQuery = {}) {
    const s = await this.deps.settings.get();
    const windows = momentWindows(s);
    const opensAt = s.gallery_opens_at && Date.parse(s.gallery_opens_at) > Date.now() ? s.gallery_opens_at : undefined;
    const empty = { photos: [], pagination: { total: 0, limit, offset, has_more: false } };
    if (opensAt && !opts.wall) return { ...empty, opens_at: opensAt };
    const g = this.galleryRepo;
    let rows: ReturnType<GalleryRepo['listVisible']>;
    let total: number;
    if (opts.highlights || (opts.wall && s.wall_source === 'highlights')) {
      [rows, total] = [g.listHighlights(limit, offset), g.countHighlights()];
    } else if (opts.moment !== undefined) {
      const w = windows.find((w) => w.title === opts.moment);
      if (!w) return empty;
      [rows, total] = [this.momentsRepo.list(w, limit, offset), this.momentsRepo.total(w)];
    } else if (opts.challenge !== undefined) {
      if (!s.challenges.some((c) => c.id === opts.challenge)) return empty;
      [rows, total] = [this.challengesRepo.list(opts.challenge, limit, offset), this.challengesRepo.total(opts.challenge)];
    } else if (opts.table !== undefined) {
      [rows, total] = [this.tablesRepo.list(opts.table, limit, offset), this.tablesRepo.total(opts.table)];
    } else if (opts.sort === 'loved') {
      [rows, total] = [g.listLoved(limit, offset), g.countVisible()];
    } else {
      [rows, total] = [g.listVisible(limit, offset), g.countVisible()];
    }
    const ids = rows.map((r) => r.id);
    const counts = g.heartCounts(ids);
    const hearted = opts.guestId ? g.heartedBy(opts.guestId, ids) : new Set<string>();
    return {
      photos: rows.map((r) => ({
        ...this.itemOf(r, s, windows, this.deps.media),
        hearts: counts.get(r.id) ?? r.hearts,
        hearted: hearted.has(r.id),
      })),
      pagination: { total, limit, offset, has_more: offset + rows.length < total },
    };
  }

  async stats(): Promise<Stats> {
    const [t, rows, s] = await Promise.all([this.repo.totals(), this.repo.cameraCounts(true), this.deps.settings.get()]);
    const cameras = camerasByName(rows);
    const perChallenge = this.challengesRepo.countsById();
    return {
      total_photos: t.total,
      total_size_mb: Math.round((t.bytes / 1_048_576) * 100) / 100,
      media_breakdown: { images: t.total - t.videos, videos: t.videos },
      cameras,
      unique_devices: cameras.length,
      // Counted like the gallery's filter: the photos a guest finds there.
      challenges: s.challenges.map((c) => ({ ...c, count: perChallenge.get(c.id) ?? 0 })),
    };
  }

  /** Where processing of a just-uploaded photo stands (the guest page polls it). */
  async status(id: string): Promise<PhotoRow['status']> {
    const row = await this.repo.status(id);
    if (!row) throw notFound(NO_PHOTO_WITH_ID);
    return row.status;
  }

  async adminList(filter: AdminFilter, page: number, perPage: number, narrowing: AdminNarrowing = {}) {
    const [rows, total] = await Promise.all([
      this.repo.listAdmin(filter, perPage, (page - 1) * perPage, narrowing),
      this.repo.countAdmin(filter, narrowing),
    ]);
    const pages = Math.ceil(total / perPage);
    // One group of similar shots is listed best first: the least flagged, then the sharpest.
    if (narrowing.similarGroup !== undefined) rows.sort(bestFirst);
    return {
      photos: await this.withGroups(rows),
      pagination: { page, per_page: perPage, pages, total, has_prev: page > 1, has_next: page < pages },
    };
  }

  /** Admin photos with the size of their similar-shot groups. */
  private async withGroups(rows: PhotoRow[]): Promise<AdminPhoto[]> {
    const counts = await this.repo.similarCounts([...new Set(rows.flatMap((r) => (r.similar_group ? [r.similar_group] : [])))]);
    const missing = this.deps.processing.missingTools();
    return rows.map((r) => photoRowToAdminPhoto(r, missing, r.similar_group ? counts.get(r.similar_group) : 1, this.deps.media));
  }

  private async adminPhoto(row: PhotoRow): Promise<AdminPhoto> {
    return (await this.withGroups([row]))[0];
  }

  /** One of the couple's highlights, or no longer; the wall hears of it when it shows only highlights. */
  async setHighlighted(id: string, on: boolean): Promise<AdminPhoto> {
    const row = await this.repo.setHighlighted((await this.get(id)).id, on);
    if (!row) throw notFound(PHOTO_NOT_FOUND);
    if (row.is_visible === 1 && (await this.deps.settings.get()).wall_source === 'highlights') {
      if (on) await this.announce([row], true, null, false, false);
      else await this.deps.bus.photoHidden(row.id);
    }
    return this.adminPhoto(row);
  }

  /**
   * "Keep this, hide the rest": approves the photo and hides every other photo of its group of
   * similar shots; answers the ids hidden (empty for a photo in no group).
   */
  async keepBest(id: string, user: AuthUser): Promise<{ photo: AdminPhoto; hidden_ids: string[] }> {
    const row = await this.get(id);
    const others = row.similar_group
      ? (await this.repo.listAdmin('all', 10_000, 0, { similarGroup: row.similar_group })).filter((r) => r.id !== row.id).map((r) => r.id)
      : [];
    const photo = await this.setVisible(row.id, true, user);
    const hidden = await this.repo.setVisibleMany(others, false, new Date().toISOString());
    await this.repo.setAside(others);
    await this.announce(hidden, false, userName(user));
    return { photo, hidden_ids: others };
  }

  /** Whether the guest sent this photo, or sent its bytes again and was answered "duplicate". */
  async ownedBy(row: PhotoRow, guestId: string | undefined): Promise<boolean> {
    if (!guestId) return false;
    return row.guest_id === guestId || this.repo.ownedAlsoBy(row.id, guestId);
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
    if (changed) await this.announce([changed], visible, userName(user));
    return this.adminPhoto(changed ?? (await this.get(id)));
  }

  async toggle(id: string, user: AuthUser): Promise<AdminPhoto> {
    const row = await this.get(id);
    return this.setVisible(id, row.is_visible !== 1, user);
  }

  async bulkVisibility(ids: string[], visible: boolean, user: AuthUser) {
    const found = await this.repo.byIds(ids);
    const known = new Set(found.map((r) => r.id));
    const changed = await this.repo.setVisibleMany([...known], visible, new Date().toISOString());
    await this.announce(changed, visible, userName(user));
    return { updated: known.size, not_found: ids.filter((id) => !known.has(id)) };
  }

  /**
   * moderation "auto": a new upload that processing left `complete`, hidden and never approved
   * becomes visible by the same path as an admin's approval. An `error` stays hidden, and so does
   * a file recovered at start (it may be one a guest or the couple had just deleted).
   */
  async autoApprove(id: string): Promise<void> {
    if ((await this.deps.settings.get()).moderation !== 'auto') return;
    const row = await this.repo.get(id);
    if (!row || row.status !== 'complete' || row.is_visible === 1 || row.approved_at !== null || row.recovered_at !== null) return;
    const changed = await this.repo.setVisibleMany([id], true, new Date().toISOString());
    await this.announce(changed, true, null, true);
  }

  /** A video's web copy now exists: when it is visible already, live screens show it from now on. */
  async announceListed(id: string): Promise<void> {
    const row = await this.repo.get(id);
    if (!row || row.is_visible !== 1) return;
    const s = await this.deps.settings.get();
    await this.deps.bus.photoVisible(this.itemOf(row, s, momentWindows(s)));
  }

  /** Tells live screens, and logs approvals (a hidden photo made visible; by nobody when automatic). */
  private async announce(changed: PhotoRow[], visible: boolean, by: string | null, automatic = false, approval = true): Promise<void> {
    const s = await this.deps.settings.get();
    const windows = visible && changed.length ? momentWindows(s) : [];
    for (const r of changed) {
      // A video without its web copy is not listed yet: announceListed() tells the wall once it is.
      if (visible && isVideo(r) && !r.display_path) continue;
      if (visible) await this.deps.bus.photoVisible(this.itemOf(r, s, windows));
      else await this.deps.bus.photoHidden(r.id);
    }
    if (!visible || !changed.length || !approval) return;
    const text =
      changed.length === 1
        ? msg(automatic ? 'activity.approved_one_auto' : 'activity.approved_one', { file: changed[0].original_filename })
        : msg(automatic ? 'activity.approved_many_auto' : 'activity.approved_many', { count: changed.length });
    await recordActivity(this.deps.db, 'approval', text, by);
  }

  async delete(id: string, user: AuthUser): Promise<PhotoRow> {
    const row = await removePhoto(this.deps, id);
    if (!row) throw notFound(PHOTO_NOT_FOUND);
    await recordActivity(this.deps.db, 'other', msg('activity.deleted', { file: row.original_filename }), userName(user));
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
    if (isVideo(row)) throw invalid('errors.photos.video_rotate');
    await this.deps.processing.rotate(row.id, degrees);
    return this.adminPhoto(await this.get(id));
  }

  async regenerate(id: string): Promise<AdminPhoto> {
    const row = await this.get(id);
    await this.deps.processing.regenerate(row.id);
    return this.adminPhoto(await this.get(id));
  }

  /** Every photo's derivatives rebuilt, one job after another in the processing queue (running: still going on). */
  regenerateAll(): Promise<{ statistics: { processed: number; succeeded: number; failed: number }; running: boolean }> {
    return this.deps.processing.regenerateAll();
  }
}
