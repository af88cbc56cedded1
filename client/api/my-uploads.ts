import type { MyUploadsResponse } from '../../common/api-types';
import { deleteJson, getJson } from './http';

/** The calling guest's own uploads (cookie wedding_guest), newest first; hidden ones included. */
export const fetchMyUploads = (limit = 100, offset = 0) => getJson<MyUploadsResponse>(`/api/my/uploads?limit=${limit}&offset=${offset}`);

/** Takes back one of the guest's own uploads; another guest's photo is 404. */
export const deleteMyUpload = (id: string) =>
  deleteJson<{ success: true }>(`/api/my/uploads/${encodeURIComponent(id)}`).then((r) => {
    // A shot comes back (the shots left, components/camera/ShotsLeft.tsx, listen).
    dispatchEvent(new Event('wedding:taken-back'));
    return r;
  });
