import type {
  FaceSearchStatusResponse,
  AdminGuestbookResponse,
  AdminPhotoList,
  BulkDeleteResponse,
  BulkVisibilityResponse,
  DashboardResponse,
  DownloadResponse,
  MeResponse,
  PhotoResponse,
  KeepBestResponse,
  RegenerateAllResponse,
  SettingsResponse,
  AdminSettingsResponse,
  UploadersResponse,
  UserForm,
  UserResponse,
  UsersResponse,
  WeddingSettings,
} from '../../common/api-types';
import type { OffsiteForm, OffsiteResponse, OffsiteTestResponse } from '../../common/offsite-types';
import { ApiError, deleteJson, getJson, postJson, putJson } from './http';

/** Typed wrappers for /admin/api (SPEC §7, CONTRACT "Admin"); every call sends credentials. */

/** Kept for test helpers that name the flags this way: it is the server's Permissions type. */
export type { Permissions as UserPermissions } from '../../common/api-types';

const A = '/admin/api';

/** The message a failed action shows: the server's error field first, else SPEC's fallback. */
export function errorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError) {
    const b = err.body as { error?: unknown } | null;
    if (b && typeof b === 'object' && typeof b.error === 'string' && b.error) return b.error;
  }
  return fallback;
}

/** A form's problems, one sentence each (the answer's `problems`), else the one message errorText gives. */
export function problemsOf(err: unknown, fallback: string): string[] {
  if (err instanceof ApiError) {
    const p = (err.body as { problems?: unknown } | null)?.problems;
    if (Array.isArray(p) && p.length && p.every((x) => typeof x === 'string' && x)) return p as string[];
  }
  return [errorText(err, fallback)];
}

export const isUnauthorized = (err: unknown): boolean => err instanceof ApiError && err.code === 'not_signed_in';
export const isForbidden = (err: unknown): boolean => err instanceof ApiError && err.code === 'forbidden';

export const adminApi = {
  login: (username: string, password: string) => postJson<MeResponse>(`${A}/login`, { username, password }),
  logout: () => postJson<unknown>(`${A}/logout`),
  me: () => getJson<MeResponse>(`${A}/me`),
  dashboard: () => getJson<DashboardResponse>(`${A}/dashboard`),
  guestbook: (status: 'pending' | 'visible' | 'all', page: number) =>
    getJson<AdminGuestbookResponse>(`${A}/guestbook?status=${status}&page=${page}&per_page=20`),
  guestbookAction: (id: string, action: 'approve' | 'hide') => postJson<unknown>(`${A}/guestbook/${encodeURIComponent(id)}/${action}`),
  deleteMessage: (id: string) => deleteJson<unknown>(`${A}/guestbook/${encodeURIComponent(id)}`),

  /** The approval queue asks for pending=true (hidden photos only); the All mode for show_all. */
  photos: (q: { page: number; perPage: number; showAll: boolean; pending: boolean; uploader?: string | null; flagged?: boolean }) => {
    const p = new URLSearchParams({ page: String(q.page), per_page: String(q.perPage) });
    if (q.pending) p.set('pending', 'true');
    else p.set('show_all', String(q.showAll));
    if (q.uploader) p.set('uploader', q.uploader);
    if (q.flagged) p.set('flagged', 'true');
    return getJson<AdminPhotoList>(`${A}/photos?${p}`);
  },
  photoAction: (id: string, action: 'approve' | 'hide') => postJson<PhotoResponse>(`${A}/photos/${encodeURIComponent(id)}/${action}`),
  highlight: (id: string, highlighted: boolean) => postJson<PhotoResponse>(`${A}/photos/${encodeURIComponent(id)}/highlight`, { highlighted }),
  keepBest: (id: string) => postJson<KeepBestResponse>(`${A}/photos/${encodeURIComponent(id)}/keep-best`),
  toggleVisibility: (id: string) => postJson<PhotoResponse>(`${A}/photos/${encodeURIComponent(id)}/toggle-visibility`),
  deletePhoto: (id: string) => deleteJson<unknown>(`${A}/photos/${encodeURIComponent(id)}/delete`),
  bulkVisibility: (ids: string[], action: 'show' | 'hide') =>
    postJson<BulkVisibilityResponse>(`${A}/photos/bulk-toggle-visibility`, { photo_ids: ids, action }),
  bulkDelete: (ids: string[]) => deleteJson<BulkDeleteResponse>(`${A}/photos/bulk-delete`, { photo_ids: ids }),
  rotate: (id: string) => postJson<PhotoResponse>(`${A}/photos/${encodeURIComponent(id)}/rotate`, { degrees: 90 }),
  download: (id: string) => getJson<DownloadResponse>(`${A}/photos/${encodeURIComponent(id)}/download`),
  regenerate: (id: string) => postJson<PhotoResponse>(`${A}/photos/${encodeURIComponent(id)}/regenerate-thumbnail`),
  /** The names guests gave, with their counts: the photos page's filter by guest. */
  uploaders: () => getJson<UploadersResponse>(`${A}/uploaders`),
  regenerateAll: () => postJson<RegenerateAllResponse>(`${A}/photos/regenerate-all-thumbnails`),

  users: () => getJson<UsersResponse>(`${A}/users`),
  createUser: (f: UserForm) => postJson<UserResponse>(`${A}/users`, f),
  updateUser: (id: number, f: Partial<UserForm>) => putJson<UserResponse>(`${A}/users/${id}`, f),
  deleteUser: (id: number) => deleteJson<unknown>(`${A}/users/${id}`),
  toggleActive: (id: number) => postJson<UserResponse>(`${A}/users/${id}/toggle-active`),

  settings: () => getJson<AdminSettingsResponse>(`${A}/settings`),
  saveSettings: (s: WeddingSettings) => putJson<AdminSettingsResponse>(`${A}/settings`, s),
  /** An image that becomes the cover (never in the gallery). */
  uploadCover: async (file: File) => {
    const fd = new FormData();
    fd.append('file', file);
    const res = await fetch(`${A}/settings/cover`, { method: 'POST', body: fd, credentials: 'include' });
    const data = (await res.json().catch(() => null)) as AdminSettingsResponse | { error?: string } | null;
    if (!res.ok) throw new ApiError(res.status, (data as { error?: string } | null)?.error ?? res.statusText, data);
    return data as AdminSettingsResponse;
  },
  removeCover: () => deleteJson<AdminSettingsResponse>(`${A}/settings/cover`),
  /** Changes only the settings named (the wall's pause button). */
  patchSettings: (s: Partial<WeddingSettings>) => putJson<SettingsResponse>(`${A}/settings`, s),

  /** The face search's card: on, until when, how many guests use it, the scan's backlog. */
  faces: () => getJson<FaceSearchStatusResponse>(`${A}/faces`),
  /** Every face code and match, now (admins only). */
  deleteFaces: () => deleteJson<FaceSearchStatusResponse>(`${A}/faces`),

  /** The off-site copy's status (and, for admins, its settings without the secret). */
  offsite: () => getJson<OffsiteResponse>(`${A}/offsite`),
  /** Fields left out stay as saved (an empty secret keeps the saved one). */
  saveOffsite: (f: Partial<OffsiteForm>) => putJson<OffsiteResponse>(`${A}/offsite`, f),
  /** Writes, reads back and deletes a small object with these settings over the saved ones. */
  testOffsite: (f: Partial<OffsiteForm>) => postJson<OffsiteTestResponse>(`${A}/offsite/test`, f),
};
