import type { AdminPhoto, GalleryItem, QualityFlag, ToolName } from '../../common/api-types.js';
import type { PhotoRow } from '../db/schema.js';
import { toolsNeededBy } from '../processing/tools.js';

// The API shapes are declared once, for server and client, in common/api-types.ts.
export type { AdminPhoto, GalleryItem } from '../../common/api-types.js';

/** The columns the mappers read; list queries select only these. */
export const GALLERY_COLUMNS = [
  'id',
  'content_type',
  'thumb_path',
  'display_path',
  'derivative_version',
  'original_filename',
  'upload_timestamp',
  'date_taken',
  'camera_make',
  'camera_model',
  'width',
  'height',
  'uploader_name',
  'duration',
  'hearts',
  'highlighted',
  'challenge_id',
  'table_number',
  'is_visible',
] as const;

export type GalleryRow = Pick<PhotoRow, (typeof GALLERY_COLUMNS)[number]>;

/**
 * Where a visible photo's derivatives are fetched from when not from this site: the couple's
 * bucket (S3_SERVE), once it holds them. Answers from memory: the gallery's hot path asks per item.
 */
export interface MediaUrls {
  /** The bucket's URL for a stored derivative (relative to DATA_DIR), or null: the site serves it. */
  urlFor(rel: string): string | null;
  /** True while no address at all comes from the bucket (serving off, no bucket, or failing). */
  idle?(): boolean;
}

type UrlRow = Pick<PhotoRow, 'id' | 'derivative_version'> & { is_visible?: number };

/** The bucket's URL for a visible photo's file; a hidden photo's always go through the site (which checks who asks). */
const fromBucket = (r: UrlRow, rel: string, media: MediaUrls | null | undefined) => (media && r.is_visible === 1 ? media.urlFor(rel) : null);

/**
 * Derivative URLs carry the derivative version: a rebuilt thumbnail gets a new URL, so the old
 * one can be cached forever. A URL is only given once its file exists (a listed URL always serves).
 * With `media`, a visible photo's copied derivatives point at the bucket (their keys name the version too).
 */
export function thumbnailUrl(r: UrlRow & Pick<PhotoRow, 'thumb_path'>, media?: MediaUrls | null): string | null {
  if (!r.thumb_path) return null;
  return fromBucket(r, r.thumb_path, media) ?? `/media/${encodeURIComponent(r.id)}/thumb?v=${r.derivative_version}`;
}

/** The display image (a video's web copy). */
export function displayUrl(r: UrlRow & Pick<PhotoRow, 'display_path'>, media?: MediaUrls | null): string | null {
  if (!r.display_path) return null;
  return fromBucket(r, r.display_path, media) ?? `/media/${encodeURIComponent(r.id)}/display?v=${r.derivative_version}`;
}

/**
 * `moment`: the schedule item the photo belongs to (settings/moments.ts), null outside every window;
 * `challenge`: the title of the photo challenge it answers, null when none.
 */
export const photoRowToGalleryItem = (r: GalleryRow, moment: string | null, challenge: string | null, media?: MediaUrls | null): GalleryItem => ({
  id: r.id,
  content_type: r.content_type,
  thumbnail_url: thumbnailUrl(r, media),
  // The name is kept for client compatibility; it is the display copy (this server's or the bucket's), never the original.
  backblaze_url: displayUrl(r, media),
  original_filename: r.original_filename,
  upload_timestamp: r.upload_timestamp,
  date_taken: r.date_taken,
  camera_make: r.camera_make,
  camera_model: r.camera_model,
  width: r.width,
  height: r.height,
  moment,
  uploader_name: r.uploader_name,
  duration: r.duration,
  hearts: r.hearts,
  // Whose hearts these are is known per request: the gallery sets it for the guest asking.
  hearted: false,
  highlighted: r.highlighted === 1,
  challenge,
  table: r.table_number ?? null,
});

/** Guests see who shared a photo only while the couple's show_uploader_names setting is on. */
export const withUploaderName = (item: GalleryItem, show: boolean): GalleryItem => (show || item.uploader_name === null ? item : { ...item, uploader_name: null });

/**
 * `missing`: tools not installed; a photo still processing that needs one is waiting for it.
 * `similarCount`: how many photos share its similar_group (1 when it has none).
 */
export const photoRowToAdminPhoto = (r: PhotoRow, missing: readonly ToolName[] = [], similarCount = 1, media?: MediaUrls | null): AdminPhoto => ({
  id: r.id,
  original_filename: r.original_filename,
  thumbnail_url: thumbnailUrl(r, media),
  display_url: displayUrl(r, media),
  content_type: r.content_type,
  file_size: r.file_size,
  width: r.width,
  height: r.height,
  duration: r.duration,
  upload_timestamp: r.upload_timestamp,
  date_taken: r.date_taken,
  is_visible: r.is_visible === 1,
  uploader_name: r.uploader_name,
  camera_make: r.camera_make,
  camera_model: r.camera_model,
  status: r.status,
  processing_error: r.processing_error,
  approved_at: r.approved_at,
  waiting_for: (r.status === 'processing' && toolsNeededBy(r.content_type).find((t) => missing.includes(t))) || null,
  hearts: r.hearts,
  highlighted: r.highlighted === 1,
  // A group whose other photos were deleted is no group any more.
  similar_group: r.similar_group && similarCount > 1 ? r.similar_group : null,
  similar_count: r.similar_group && similarCount > 1 ? similarCount : 1,
  quality_flags: parseFlags(r.quality_flags),
  sharpness: r.sharpness,
});

const FLAGS: readonly QualityFlag[] = ['blurry', 'dark', 'overexposed'];

/** The stored comma list, as the API's list (unknown words dropped). */
export const parseFlags = (stored: string | null): QualityFlag[] =>
  stored ? (stored.split(',').filter((f) => (FLAGS as readonly string[]).includes(f)) as QualityFlag[]) : [];

/**
 * "Canon EOS 40D", not "Canon Canon EOS 40D": the make is left out when the model already starts
 * with its first word (so "NIKON CORPORATION" + "NIKON D70" is "NIKON D70"). null without either.
 */
export function cameraName(make: string | null, model: string | null): string | null {
  const mk = make?.trim().replace(/\s+/g, ' ') || '';
  const md = model?.trim().replace(/\s+/g, ' ') || '';
  if (!mk && !md) return null;
  if (!mk) return md;
  if (!md) return mk;
  const firstWord = mk.split(' ')[0].toLowerCase();
  const lower = md.toLowerCase();
  if (lower.startsWith(mk.toLowerCase()) || lower === firstWord || lower.startsWith(firstWord + ' ') || lower.startsWith(firstWord + '-')) return md;
  return `${mk} ${md}`;
}
