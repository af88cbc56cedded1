/**
 * What the server answers and the client reads: shared by both sides. The client imports this
 * file with `import type` only, so nothing of the server's runtime reaches the browser bundle.
 */

/** Stable machine codes of every API error; the client decides on these, never on the sentence. */
export type ErrorCode =
  | 'invalid_input' // 400
  | 'not_signed_in' // 401
  | 'forbidden' // 403
  | 'uploads_disabled' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_large' // 413
  | 'unsupported_type' // 415
  | 'range_not_satisfiable' // 416
  | 'unprocessable' // 422
  | 'rate_limited' // 429
  | 'unavailable' // 503
  | 'storage_full' // 507
  | 'internal'; // 500

/** Every API error answer. */
export interface ApiError {
  success: false;
  error: string;
  code: ErrorCode;
  [extra: string]: unknown;
}

// ---- Shared vocabulary (the database stores the same strings) ----

export type Role = 'family' | 'bride' | 'groom' | 'admin';
export type PhotoStatus = 'processing' | 'complete' | 'error';
export type ActivityType = 'upload' | 'login' | 'approval' | 'user_created' | 'other';

// ---- Signing in (SPEC §5, §6) ----

/**
 * What a signed-in user may do; the server checks these flags with requirePermission() and
 * sends them as user_permissions, so the client shows exactly what the server allows.
 */
export interface Permissions {
  /** Users screen, user statistics (SPEC §6). */
  can_manage_users: boolean;
  /** Rotate, regenerate thumbnails, the approval queue. */
  can_moderate_photos: boolean;
  is_admin: boolean;
  /** Delete single, bulk, reject. */
  can_delete_photos: boolean;
  /** Wedding content and the uploads switch. */
  can_edit_settings: boolean;
  /** Every signed-in user: dashboard, photo list, toggle/approve/hide, download, export, QR. */
  can_view_admin: boolean;
}

/** The signed-in user as login and /admin/api/me describe it. */
export interface SessionUser {
  id: number;
  username: string;
  full_name: string;
  role: Role;
}

/** POST /admin/api/login and GET /admin/api/me. */
export interface MeResponse {
  success: true;
  user: SessionUser;
  user_permissions: Permissions;
}

// ---- Users (SPEC §5) ----

/** The user as the API shows it: never the password hash. */
export interface ApiUser {
  id: number;
  username: string;
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  created_at: string;
  last_login: string | null;
}

/** The user form the admin screen sends on create and edit (a blank password on edit keeps it). */
export interface UserForm {
  username: string;
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  password: string;
}

export interface UsersResponse {
  success: true;
  users: ApiUser[];
}

export interface UserResponse {
  success: true;
  user: ApiUser;
}

// ---- Photos ----

/** What the public gallery (and the reception wall's event stream) shows of a photo. */
export interface GalleryItem {
  id: string;
  content_type: string;
  thumbnail_url: string | null;
  /** The name is kept for client compatibility; it is this server's display copy. */
  backblaze_url: string | null;
  original_filename: string;
  upload_timestamp: string;
  date_taken: string | null;
  camera_make: string | null;
  camera_model: string | null;
  width: number | null;
  height: number | null;
  /** The title of the schedule item whose start/end window holds the photo's time, or null. */
  moment: string | null;
  /** The name the guest gave; null when anonymous or while show_uploader_names is off. */
  uploader_name: string | null;
  /** Seconds, for videos (null for photos and when unknown). */
  duration: number | null;
}

/** A visible photo or video as GET /api/photos and the photo-visible event carry it. */
export type WallItem = GalleryItem;

/** Data of the live events (GET /api/events): photo-visible carries the item, photo-hidden its id. */
export interface LiveEventData {
  'photo-visible': GalleryItem;
  'photo-hidden': { id: string };
  /** The couple paused or resumed the wall. */
  'wall-state': { paused: boolean };
}

/** GET /api/public-url: the address guests reach, and its /live page (for QR codes). */
export interface PublicUrlResponse {
  success: true;
  url: string;
  live_url: string;
}

/** Paging of the public gallery (offset based). */
export interface GalleryPagination {
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
}

/** GET /api/photos */
export interface GalleryResponse {
  success: true;
  photos: GalleryItem[];
  pagination: GalleryPagination;
  /** Present while the gallery is still closed: when it opens (ISO 8601); the list is empty until then. */
  opens_at?: string;
}

/** SPEC §3 "stats": GET /api/stats answers {success, stats}. */
export interface Stats {
  total_photos: number;
  total_size_mb: number;
  media_breakdown: { images: number; videos: number };
  cameras: { name: string; count: number }[];
  unique_devices: number;
}

export interface StatsResponse {
  success: true;
  stats: Stats;
}

/** What the admin screens show of a photo (SPEC §3 "Admin photo" plus a few helpful extras). */
export interface AdminPhoto {
  id: string;
  original_filename: string;
  thumbnail_url: string | null;
  display_url: string | null;
  content_type: string;
  file_size: number;
  width: number | null;
  height: number | null;
  duration: number | null;
  upload_timestamp: string;
  date_taken: string | null;
  is_visible: boolean;
  uploader_name: string | null;
  camera_make: string | null;
  camera_model: string | null;
  status: PhotoStatus;
  processing_error: string | null;
  approved_at: string | null;
}

/** Paging of the admin photo list (page based). */
export interface AdminPagination {
  page: number;
  per_page: number;
  pages: number;
  total: number;
  has_prev: boolean;
  has_next: boolean;
}

/** GET /admin/api/photos */
export interface AdminPhotoList {
  success: true;
  photos: AdminPhoto[];
  pagination: AdminPagination;
}

/** Toggle, approve, hide, rotate and regenerate answer with the photo as it now is. */
export interface PhotoResponse {
  success: true;
  photo: AdminPhoto;
}

export interface BulkVisibilityResponse {
  success: true;
  message: string;
  updated: number;
  not_found: string[];
}

export interface BulkDeleteResponse {
  success: true;
  message: string;
  deleted: number;
  failed_deletes: { id: string; error: string }[];
}

export interface RegenerateAllResponse {
  success: true;
  statistics: { processed: number; succeeded: number; failed: number };
  /** True when the answer came before the work ended (after 60 s): it goes on, statistics are so far. */
  running: boolean;
}

export interface DownloadResponse {
  success: true;
  download_url: string;
}

// ---- Guests by name ----

/** One of the calling guest's own uploads (GET /api/my/uploads), hidden ones included. */
export interface MyUpload {
  id: string;
  original_filename: string;
  content_type: string;
  status: PhotoStatus;
  is_visible: boolean;
  /** Serves to this guest even while the photo is hidden. */
  thumbnail_url: string | null;
  upload_timestamp: string;
  uploader_name: string | null;
}

/** GET /api/my/uploads */
export interface MyUploadsResponse {
  success: true;
  photos: MyUpload[];
  pagination: GalleryPagination;
}

/** A name guests gave and how many photos carry it. */
export interface UploaderCount {
  name: string;
  count: number;
}

/** GET /admin/api/uploaders: the photos page's filter by guest. */
export interface UploadersResponse {
  success: true;
  uploaders: UploaderCount[];
}

// ---- Dashboard (SPEC §2) ----

export interface DashboardStats {
  total_photos: number;
  visible_photos: number;
  pending_photos: number;
  recent_uploads: number;
  /** Same window as recent_uploads: the "+N this week" trend. */
  uploads_this_week: number;
  storage_used: number;
  storage_limit: number | null;
  /** The user cards: only for can_manage_users. */
  total_users?: number;
  active_users?: number;
  admin_users?: number;
  family_users?: number;
}

export interface ActivityItem {
  id: number;
  type: ActivityType;
  description: string;
  timestamp: string;
  user_name: string | null;
}

/** What DashboardService builds; GET /admin/api/dashboard answers it with success: true. */
export interface Dashboard {
  stats: DashboardStats;
  chart_data: { uploads_by_day: { date: string; uploads: number }[]; camera_stats: { name: string; value: number }[] };
  recent_activity: ActivityItem[];
  recent_photos: AdminPhoto[];
  /** The guests who shared the most, by the name they gave. */
  top_contributors: UploaderCount[];
  user_permissions: Permissions;
}

export type DashboardResponse = Dashboard & { success: true };

// ---- Wedding settings (SPEC §2, GET /api/settings, /admin/api/settings) ----

export interface ScheduleItem {
  title: string;
  /** e.g. "Friday, 6 June 2025" */
  day: string;
  /** e.g. "7:00-9:00 PM" */
  time: string;
  venue: string;
  location: string;
  attire: string;
  /** Who may attend. */
  attendance: string;
  description: string;
  /** The moment's window (ISO 8601 with an offset); photos taken in it belong to this item. */
  starts_at?: string | null;
  ends_at?: string | null;
}

/** manual: new uploads wait for approval; auto: a new upload becomes visible once processed. */
export type Moderation = 'manual' | 'auto';

export interface WeddingSettings {
  couple_names: [string, string];
  welcome_message: string;
  photo_sharing_message: string;
  thank_you_message: string;
  schedule: ScheduleItem[];
  uploads_enabled: boolean;
  moderation: Moderation;
  /** null: the gallery is open; else it opens at this time (ISO 8601). */
  gallery_opens_at: string | null;
  /** The wall shows only its QR code while paused. */
  wall_paused: boolean;
  /** IANA zone the schedule's times are entered in, e.g. "Europe/Berlin". */
  time_zone: string;
  /** Gallery, viewer and wall show who shared a photo ("Shared by Anna"). */
  show_uploader_names: boolean;
}

export interface SettingsResponse {
  success: true;
  settings: WeddingSettings;
}
