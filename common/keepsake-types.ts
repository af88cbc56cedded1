/**
 * The films and photo books as the admin page reads and asks for them: GET, POST and DELETE
 * /admin/api/keepsakes and POST /admin/api/keepsakes/music. Shared by server and client like
 * api-types.ts; the client imports it with `import type` only.
 */

export type KeepsakeKind = 'film' | 'book';
/** Which photos: the highlighted ones, those with hearts, or every visible one. */
export type KeepsakeSource = 'highlights' | 'loved' | 'visible';
export type Paper = 'A4' | 'letter' | 'square';
export type KeepsakeStatus = 'queued' | 'making' | 'ready' | 'error';

/** A film or photo book as GET /admin/api/keepsakes lists it. */
export interface KeepsakeView {
  id: string;
  kind: KeepsakeKind;
  status: KeepsakeStatus;
  /** 0-100. */
  progress: number;
  created_at: string;
  finished_at: string | null;
  file_size: number | null;
  /** Where a ready one is downloaded (and the film played); null until it is ready. */
  url: string | null;
  error: string | null;
  source: KeepsakeSource;
  title: string | null;
  seconds: number | null;
  paper: Paper | null;
  music_id: string | null;
}

/** One of the couple's tracks for their films. */
export interface KeepsakeMusicView {
  id: string;
  original_name: string;
  file_size: number;
  /** Seconds. */
  duration: number;
}

/** GET /admin/api/keepsakes. */
export interface KeepsakesResponse {
  success: true;
  keepsakes: KeepsakeView[];
  music: KeepsakeMusicView[];
  share_film: boolean;
}

/** What the admin page sends to make one (POST /admin/api/keepsakes). */
export type KeepsakeRequest =
  | { kind: 'film'; source: KeepsakeSource; seconds: number; music_id: string | null; title: string | null }
  | { kind: 'book'; source: KeepsakeSource; paper: Paper; title: string | null };
