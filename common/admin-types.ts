/**
 * What the admin screens read and send: signing in, users, the photo list and its actions, the
 * dashboard. Shared by server and client like api-types.ts, which re-exports all of it, so
 * importers may keep naming api-types.ts.
 */

import type { ActivityType, GuestbookStatus, PhotoStatus, Role, ToolName, VoiceNoteStatus } from './api-types.js';
import type { ChannelState } from './security-types.js';
import type { OffsiteStatusView } from './offsite-types.js';

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

// ---- Admin photos ----

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
  /** Still processing because this tool is not installed: the file waits for it. */
  waiting_for: ToolName | null;
  hearts: number;
  highlighted: boolean;
  /** Shared by a group of similar shots (bursts, several guests on one moment); null when alone. */
  similar_group: string | null;
  /** How many photos the group holds (1 when alone). */
  similar_count: number;
  /** What processing found wrong with the picture; empty when nothing (or not measured). */
  quality_flags: QualityFlag[];
  /** Variance of the Laplacian on the measuring copy: higher is sharper; null until measured. */
  sharpness: number | null;
}

export type QualityFlag = 'blurry' | 'dark' | 'overexposed';

/** POST /admin/api/photos/{id}/keep-best */
export interface KeepBestResponse {
  success: true;
  photo: AdminPhoto;
  /** The other photos of its group, now hidden. */
  hidden_ids: string[];
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

// ---- Guests by name, as the admin filters by them ----

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
  /** Guestbook messages waiting for approval (not visible). */
  pending_guestbook: number;
  /** Every guestbook message, visible or not. */
  total_guestbook: number;
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
  /** Each photo challenge in the couple's order with its photos: all stored, and visible. */
  challenge_counts: ChallengeTotals[];
  user_permissions: Permissions;
  /** Tools processing needs that are not installed, and how many files wait for each. */
  missing_tools: MissingTool[];
  /** Notification channels that failed their last try (admins only; empty when all work). */
  notify_failures?: ChannelState[];
  /** The off-site copy's status, once a bucket is set up (every signed-in role). */
  offsite?: OffsiteStatusView;
}

/** A tool that is not installed: what cannot be prepared without it, and how many files wait. */
export interface MissingTool {
  tool: ToolName;
  needed_for: 'videos' | 'heic';
  waiting_files: number;
}

export type DashboardResponse = Dashboard & { success: true };

/** A photo challenge's photos on the dashboard. */
export interface ChallengeTotals {
  id: string;
  title: string;
  total: number;
  visible: number;
}

// ---- Guestbook moderation ----

/** A guestbook message as the admin panel lists it. */
export interface AdminGuestbookEntry {
  id: string;
  name: string | null;
  message: string;
  status: GuestbookStatus;
  is_visible: boolean;
  /** The playable copy (also while hidden, for signed-in users); null without one or until made. */
  audio_url: string | null;
  duration: number | null;
  audio_status: VoiceNoteStatus;
  /** Why the voice note could not be prepared. */
  audio_error: string | null;
  created_at: string;
  approved_at: string | null;
}

/** GET /admin/api/guestbook */
export interface AdminGuestbookList {
  entries: AdminGuestbookEntry[];
  pagination: AdminPagination;
  /** Messages waiting for approval, whatever the filter. */
  pending: number;
}

export type AdminGuestbookResponse = AdminGuestbookList & { success: true };
