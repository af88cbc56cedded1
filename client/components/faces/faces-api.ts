import type { FaceSearchResponse } from '../../../common/api-types';
import { ApiError, deleteJson, getJson } from '../../api/http';

/** This browser's search (cookie wedding_guest); 404 not_found while it has not sent a selfie. */
export const fetchMyFaces = () => getJson<FaceSearchResponse>('/api/faces/me');

/** Deletes this browser's face code and matches at once. */
export const forgetMyFace = () => deleteJson<{ success: true }>('/api/faces/me');

/** Sends the selfie with the guest's consent; it is read once and never stored. */
export async function sendSelfie(selfie: Blob, name: string): Promise<FaceSearchResponse> {
  const form = new FormData();
  form.append('consent', 'true');
  form.append('selfie', selfie, name);
  const res = await fetch('/api/faces/me', { method: 'POST', body: form, credentials: 'include' });
  const body = (await res.json().catch(() => null)) as (FaceSearchResponse & { error?: string }) | null;
  if (!res.ok) throw new ApiError(res.status, typeof body?.error === 'string' ? body.error : res.statusText, body);
  return body as FaceSearchResponse;
}

/** A "not searched yet" answer: the guest starts at the consent text. */
export const notSearchedYet = (err: unknown) => err instanceof ApiError && err.code === 'not_found';

/** The server's sentence (already in the guest's language), else `fallback`. */
export const problemText = (err: unknown, fallback: string) => (err instanceof ApiError && err.status < 500 && err.message ? err.message : fallback);
