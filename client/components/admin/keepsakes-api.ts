import type { KeepsakeMusicView, KeepsakeRequest, KeepsakesResponse, KeepsakeView } from '../../../common/keepsake-types';
import { ApiError, deleteJson, getJson, postJson, putJson } from '../../api/http';

const A = '/admin/api';

/** The films and photo books made from the day (everyone signed in sees them; the couple and admins make them). */
export const keepsakesApi = {
  list: () => getJson<KeepsakesResponse>(`${A}/keepsakes`),
  create: (r: KeepsakeRequest) => postJson<{ success: true; keepsake: KeepsakeView }>(`${A}/keepsakes`, r),
  remove: (id: string) => deleteJson<{ success: true }>(`${A}/keepsakes/${encodeURIComponent(id)}`),
  share: (on: boolean) => putJson<{ success: true; share_film: boolean }>(`${A}/keepsakes/share`, { share_film: on }),
  /** The couple's own track for their films. */
  uploadMusic: async (file: File): Promise<KeepsakeMusicView> => {
    const fd = new FormData();
    fd.append('file', file);
    const res = await fetch(`${A}/keepsakes/music`, { method: 'POST', body: fd, credentials: 'include' });
    const data = (await res.json().catch(() => null)) as { music?: KeepsakeMusicView; error?: string } | null;
    if (!res.ok || !data?.music) throw new ApiError(res.status, data?.error ?? res.statusText, data);
    return data.music;
  },
};
