import { ApiError, deleteJson, getJson, postJson, putJson } from './http';
import type { WeddingSettings } from '../state/settings';

/** Typed wrappers for /admin/api (SPEC §7, CONTRACT "Admin"); every call sends credentials. */

import type { Role } from '../../server/db/schema';
import type { ApiUser } from '../../server/users/users.repo';

export type { Role };
/** The user as /admin/api/users answers it (the server's own type, imported for types only). */
export type User = ApiUser;

export interface UserPermissions {
  can_manage_users: boolean;
  can_moderate_photos: boolean;
  is_admin: boolean;
  can_delete_photos?: boolean;
  can_edit_settings?: boolean;
  can_view_admin?: boolean;
}

export interface MeResponse {
  user: { id: number; username: string; full_name: string; role: Role };
  user_permissions: UserPermissions;
}

export interface AdminPhoto {
  id: string;
  original_filename: string;
  thumbnail_url: string | null;
  display_url?: string | null;
  content_type: string;
  file_size: number;
  width: number | null;
  height: number | null;
  upload_timestamp: string;
  date_taken?: string | null;
  is_visible: boolean;
  status?: string;
  uploader_name?: string | null;
  camera_make: string | null;
  camera_model: string | null;
}

export interface Pagination {
  page: number;
  pages: number;
  total: number;
  has_prev: boolean;
  has_next: boolean;
}

export interface PhotoList {
  photos: AdminPhoto[];
  pagination: Pagination;
}

export interface DashboardStats {
  total_photos: number;
  visible_photos: number;
  recent_uploads: number;
  uploads_this_week?: number;
  storage_used: number | null;
  storage_limit: number | null;
  total_users?: number;
  active_users?: number;
  admin_users?: number;
  family_users?: number;
}

export type ActivityType = 'upload' | 'login' | 'approval' | 'user_created' | 'other';

export interface Activity {
  id: number | string;
  type: ActivityType | string;
  description: string;
  timestamp: string;
  user_name?: string | null;
}

export interface Dashboard {
  stats: DashboardStats;
  chart_data: { uploads_by_day: { date: string; uploads: number }[]; camera_stats: { name: string; value: number }[] };
  recent_activity: Activity[];
  recent_photos: AdminPhoto[];
  user_permissions: UserPermissions;
}

export interface UserForm {
  username: string;
  email: string;
  full_name: string;
  role: Role;
  is_active: boolean;
  password: string;
}

const A = '/admin/api';

/** The message a failed action shows: the server's error field first, else SPEC's fallback. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const b = err.body as { error?: unknown } | null;
    if (b && typeof b === 'object' && typeof b.error === 'string' && b.error) return b.error;
  }
  return fallback;
}

export const isUnauthorized = (err: unknown): boolean => err instanceof ApiError && err.status === 401;
export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.status === 403;

export const adminApi = {
  login: (username: string, password: string) => postJson<unknown>(`${A}/login`, { username, password }),
  logout: () => postJson<unknown>(`${A}/logout`),
  me: () => getJson<MeResponse>(`${A}/me`),
  dashboard: () => getJson<Dashboard>(`${A}/dashboard`),

  /** The approval queue asks for pending=true (hidden photos only); the All mode for show_all. */
  photos: (q: { page: number; perPage: number; showAll: boolean; pending: boolean }) => {
    const p = new URLSearchParams({ page: String(q.page), per_page: String(q.perPage) });
    if (q.pending) p.set('pending', 'true');
    else p.set('show_all', String(q.showAll));
    return getJson<PhotoList>(`${A}/photos?${p}`);
  },
  photoAction: (id: string, action: 'approve' | 'hide') => postJson<unknown>(`${A}/photos/${encodeURIComponent(id)}/${action}`),
  toggleVisibility: (id: string) => postJson<unknown>(`${A}/photos/${encodeURIComponent(id)}/toggle-visibility`),
  deletePhoto: (id: string) => deleteJson<unknown>(`${A}/photos/${encodeURIComponent(id)}/delete`),
  bulkVisibility: (ids: string[], action: 'show' | 'hide') =>
    postJson<{ message?: string }>(`${A}/photos/bulk-toggle-visibility`, { photo_ids: ids, action }),
  bulkDelete: (ids: string[]) => deleteJson<{ message?: string; failed_deletes?: unknown[] }>(`${A}/photos/bulk-delete`, { photo_ids: ids }),
  rotate: (id: string) => postJson<{ success: boolean; error?: string }>(`${A}/photos/${encodeURIComponent(id)}/rotate`, { degrees: 90 }),
  download: (id: string) => getJson<{ success: boolean; download_url: string }>(`${A}/photos/${encodeURIComponent(id)}/download`),
  regenerate: (id: string) => postJson<{ success: boolean; error?: string }>(`${A}/photos/${encodeURIComponent(id)}/regenerate-thumbnail`),
  regenerateAll: () =>
    postJson<{ success: boolean; statistics?: { processed: number; succeeded: number; failed: number } }>(
      `${A}/photos/regenerate-all-thumbnails`,
    ),

  users: () => getJson<{ users: User[] }>(`${A}/users`),
  createUser: (f: UserForm) => postJson<{ user: User }>(`${A}/users`, f),
  updateUser: (id: number, f: Partial<UserForm>) => putJson<{ user: User }>(`${A}/users/${id}`, f),
  deleteUser: (id: number) => deleteJson<unknown>(`${A}/users/${id}`),
  toggleActive: (id: number) => postJson<{ user: User }>(`${A}/users/${id}/toggle-active`),

  settings: () => getJson<{ settings: WeddingSettings }>(`${A}/settings`),
  saveSettings: (s: WeddingSettings) => putJson<{ settings: WeddingSettings }>(`${A}/settings`, s),
};
