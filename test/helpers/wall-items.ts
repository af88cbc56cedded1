import type { WallItem } from '../../client/components/wall/types.js';

/** A visible photo (or, with a video type, a clip) as the wall receives it. */
export const wallItem = (id: string, type = 'image/jpeg'): WallItem => ({
  id,
  content_type: type,
  thumbnail_url: null,
  backblaze_url: `/media/${id}/display`,
  original_filename: `${id}.jpg`,
  upload_timestamp: '2025-06-07T18:30:00.000Z',
  date_taken: null,
  camera_make: null,
  camera_model: null,
  width: 10,
  height: 10,
  moment: null,
  uploader_name: null,
  duration: null,
  hearts: 0,
  hearted: false,
  highlighted: false,
  challenge: null,
  table: null,
});
