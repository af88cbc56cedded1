import type { GalleryResponse, GuestbookResponse } from '../../../common/api-types';
import { getJson } from '../../api/http';
import { messageItem, sharedAt, type WallItem } from './types';

/** The newest visible photos and videos, paging through GET /api/photos up to `max`. */
export async function loadVisible(max = 500): Promise<WallItem[]> {
  const out: WallItem[] = [];
  for (let offset = 0; out.length < max; ) {
    // view=wall: the wall keeps showing photos while the guests' gallery waits for its reveal time.
    const page = await getJson<GalleryResponse>(`/api/photos?view=wall&limit=100&offset=${offset}`);
    out.push(...page.photos.filter((p) => /^(image|video)\//.test(p.content_type) && p.backblaze_url));
    if (!page.pagination.has_more || page.photos.length === 0) break;
    offset += page.photos.length;
  }
  return out.slice(0, max);
}

/** The newest visible guestbook messages (one page of GET /api/guestbook). */
export async function loadMessages(max = 100): Promise<WallItem[]> {
  const page = await getJson<GuestbookResponse>(`/api/guestbook?limit=${Math.min(max, 100)}`);
  return page.entries.map(messageItem);
}

/** Photos and messages in one playlist, newest first, so messages come up between photos. */
export async function loadWall(maxPhotos: number, maxMessages = 100): Promise<WallItem[]> {
  const [photos, messages] = await Promise.all([
    loadVisible(maxPhotos),
    // A failure here leaves the photos showing.
    loadMessages(maxMessages).catch((err) => {
      console.error('Could not load the guestbook for the wall', err);
      return [] as WallItem[];
    }),
  ]);
  return [...photos, ...messages].sort((a, b) => (sharedAt(a) < sharedAt(b) ? 1 : sharedAt(a) > sharedAt(b) ? -1 : 0));
}
