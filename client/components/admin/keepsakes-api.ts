import { ApiError, deleteJson, getJson, postJson, putJson } from '../../api/http';

const A = '/admin/api';

export type KeepsakeSource = 'highlights' | 'loved' | 'visible';
export type Paper = 'A4' | 'letter' | 'square';

/** A film or photo book as GET /admin/api/keepsakes lists it. */
export interface Keepsake {
  id: string;
  kind: 'film' | 'book';
  status: 'queued' | 'making' | 'ready' | 'error';
  progress: number;
  created_at: string;
  finished_at: string | null;
  file_size: number | null;
  url: string | null;
  error: string | null;
  source: KeepsakeSource;
  title: string | null;
  seconds: number | null;
  paper: Paper | null;
  music_id: string | null;
}

export interface KeepsakeMusic {
  id: string;
  original_name: string;
  file_size: number;
  duration: number;
}

export interface KeepsakesResponse {
  success: true;
  keepsakes: Keepsake[];
  music: KeepsakeMusic[];
  share_film: boolean;
}

export type KeepsakeRequest =
  | { kind: 'film'; source: KeepsakeSource; seconds: number; music_id: string | null; title: string | null }
  | { kind: 'book'; source: KeepsakeSource; paper: Paper; title: string | null };

/** The films and photo books made from the day (everyone signed in sees them; the couple and admins make them). */
export const keepsakesApi = {
  list: () => getJson<KeepsakesResponse>(`${A}/keepsakes`),
  create: (r: KeepsakeRequest) => postJson<{ success: true; keepsake: Keepsake }>(`${A}/keepsakes`, r),
  remove: (id: string) => deleteJson<{ success: true }>(`${A}/keepsakes/${encodeURIComponent(id)}`),
  share: (on: boolean) => putJson<{ success: true; share_film: boolean }>(`${A}/keepsakes/share`, { share_film: on }),
  /** The couple's own track for their films. */
  uploadMusic: async (file: File): Promise<KeepsakeMusic> => {
    const fd = new FormData();
    fd.append('file', file);
    const res = await fetch(`${A}/keepsakes/music`, { method: 'POST', body: fd, credentials: 'include' });
    const data = (await res.json().catch(() => null)) as { music?: KeepsakeMusic; error?: string } | null;
    if (!res.ok || !data?.music) throw new ApiError(res.status, data?.error ?? res.statusText, data);
    return data.music;
  },
};
