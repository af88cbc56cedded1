import type { GalleryItem } from '../../../common/api-types';
import { isVideo } from './types';

/** Fetches and decodes an image off-screen; rejects on error or after `timeoutMs`. */
export function preloadImage(url: string, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    const timer = setTimeout(() => {
      img.removeAttribute('src'); // cancels the download
      reject(new Error(`Loading ${url} timed out`));
    }, timeoutMs);
    img.decoding = 'async';
    img.src = url;
    img.decode().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** What a tile draws first, loaded before the tile changes: a photo's display image, a video's still (its thumbnail). */
export function preloadStill(item: GalleryItem): Promise<void> {
  const url = isVideo(item) ? item.thumbnail_url : item.backblaze_url;
  return url ? preloadImage(url) : Promise.reject(new Error(`${item.id}: nothing to draw`));
}
