import type { AdminGuestbookEntry, GuestbookEntry, GuestbookStatus, MyGuestbookEntry, WallMessage } from '../../common/api-types.js';
import type { GuestbookRow } from '../db/schema.js';

/** Where a message's voice note plays: its copy every browser plays, once it exists. */
export const audioUrl = (r: Pick<GuestbookRow, 'id' | 'web_audio_path'>): string | null =>
  r.web_audio_path ? `/api/guestbook/${encodeURIComponent(r.id)}/audio` : null;

export const statusOf = (r: Pick<GuestbookRow, 'is_visible'>): GuestbookStatus => (r.is_visible ? 'visible' : 'pending');

export const guestbookRowToEntry = (r: GuestbookRow): GuestbookEntry => ({
  id: r.id,
  name: r.name,
  message: r.message,
  audio_url: audioUrl(r),
  duration: r.duration,
  created_at: r.created_at,
});

export const guestbookRowToMine = (r: GuestbookRow): MyGuestbookEntry => ({
  ...guestbookRowToEntry(r),
  status: statusOf(r),
  audio_status: r.audio_status,
});

export const guestbookRowToAdmin = (r: GuestbookRow): AdminGuestbookEntry => ({
  id: r.id,
  name: r.name,
  message: r.message,
  status: statusOf(r),
  is_visible: r.is_visible === 1,
  audio_url: audioUrl(r),
  duration: r.duration,
  audio_status: r.audio_status,
  audio_error: r.audio_error,
  created_at: r.created_at,
  approved_at: r.approved_at,
});

/** What the wall shows of a message: never its sound. */
export const guestbookRowToWall = (r: Pick<GuestbookRow, 'id' | 'name' | 'message' | 'created_at'>): WallMessage => ({
  id: r.id,
  name: r.name,
  message: r.message,
  created_at: r.created_at,
});
