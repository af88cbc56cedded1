import type { GuestbookCreatedResponse, GuestbookResponse, MyGuestbookResponse } from '../../common/api-types';
import { ApiError, deleteJson, getJson } from './http';

export const fetchGuestbook = (limit = 20, offset = 0) => getJson<GuestbookResponse>(`/api/guestbook?limit=${limit}&offset=${offset}`);
export const fetchMyGuestbook = (limit = 50) => getJson<MyGuestbookResponse>(`/api/my/guestbook?limit=${limit}`);
export const deleteMyMessage = (id: string) => deleteJson<{ success: true }>(`/api/my/guestbook/${encodeURIComponent(id)}`);

/** POST /api/guestbook as a form (the voice note is a file part); a refusal is an ApiError whose body names the field. */
export async function sendMessage(f: { message: string; name: string; audio: Blob | null; audioName?: string }): Promise<GuestbookCreatedResponse> {
  const form = new FormData();
  form.append('message', f.message);
  if (f.name.trim()) form.append('name', f.name.trim());
  if (f.audio) form.append('audio', f.audio, f.audioName ?? 'voice-note');
  const res = await fetch('/api/guestbook', { method: 'POST', body: form, credentials: 'include' });
  const body = (await res.json().catch(() => null)) as { error?: string } | null;
  if (!res.ok) throw new ApiError(res.status, body?.error ?? res.statusText, body);
  return body as unknown as GuestbookCreatedResponse;
}
