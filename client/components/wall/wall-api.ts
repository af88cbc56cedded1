import type { GalleryResponse, WallItem } from '../../../common/api-types';
import { getJson } from '../../api/http';

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
