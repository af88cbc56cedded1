/** A visible photo or video as GET /api/photos and the photo-visible event carry it. */
export interface WallItem {
  id: string;
  content_type: string;
  thumbnail_url: string | null;
  /** The display image (or the video); null until processing has made it. */
  backblaze_url: string | null;
  original_filename: string;
  upload_timestamp: string;
  date_taken: string | null;
  camera_make: string | null;
  camera_model: string | null;
  width: number | null;
  height: number | null;
}

export const isVideo = (item: WallItem) => item.content_type.startsWith('video/');
