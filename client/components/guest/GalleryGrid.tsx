import { useState } from 'react';
import type { GalleryItem } from '../../../common/api-types';
import { EAGER_TILES } from '../../../common/gallery';
import ImageOff from 'lucide-react/icons/image-off';
import Play from 'lucide-react/icons/play';
import { t } from '../../i18n';
import { HeartButton } from './Heart';

export const isVideo = (item: GalleryItem) => item.content_type.startsWith('video/');

interface Props {
  items: GalleryItem[];
  onOpen: (item: GalleryItem, trigger: HTMLElement) => void;
  onHeart: (item: GalleryItem) => void;
}

/**
 * The thumbnail grid (3 columns, 4 on large screens), each tile with its heart; the first
 * thumbnail loads at once, at high priority, the others lazily. On `/gallery` the server draws the first page the same way
 * (server/http/gallery-html.ts), so this replaces that markup without a change.
 */
export function GalleryGrid({ items, onOpen, onHeart }: Props) {
  return (
    <ul className="gallery-grid" aria-label={t('gallery.grid_label')}>
      {items.map((item, index) => {
        const video = isVideo(item);
        const src = item.thumbnail_url ?? (video ? null : item.backblaze_url);
        return (
          <li key={item.id}>
            <button
              type="button"
              className={`gallery-tile${video ? ' gallery-tile-video' : ''}`}
              onClick={(e) => onOpen(item, e.currentTarget)}
              aria-label={t(video ? 'gallery.open_video' : 'gallery.open_photo', { name: item.original_filename })}
            >
              {src || video ? <TileImage src={src} index={index} /> : <Unshowable />}
              {video && (
                <span className="gallery-tile-play" aria-hidden="true">
                  <Play size={22} />
                </span>
              )}
            </button>
            <HeartButton item={item} onHeart={onHeart} />
          </li>
        );
      })}
    </ul>
  );
}

/** A thumbnail, or the "cannot be shown" tile when it fails to load: never a blank box. */
function TileImage({ src, index }: { src: string | null; index: number }) {
  const [failed, setFailed] = useState(false);
  if (failed) return <Unshowable />;
  if (!src) return <span className="gallery-tile-placeholder" />;
  const eager = index < EAGER_TILES;
  return <img alt="" loading={eager ? 'eager' : 'lazy'} fetchPriority={index === 0 ? 'high' : undefined} decoding="async" src={src} onError={() => setFailed(true)} />;
}

/** An approved photo whose processing failed: it is listed, so it says why nothing shows. */
export function Unshowable() {
  return (
    <span className="gallery-tile-placeholder gallery-tile-unshowable" data-testid="unshowable">
      <ImageOff size={22} aria-hidden="true" />
      <span>{t('gallery.unshowable')}</span>
    </span>
  );
}

/** SPEC §9: a skeleton of 12 tiles while the first page loads. */
export function GallerySkeleton() {
  return (
    <ul className="gallery-grid" aria-busy="true" aria-label={t('gallery.loading')}>
      {Array.from({ length: 12 }, (_, i) => (
        <li key={i}>
          <div className="gallery-tile skeleton" data-testid="skeleton-tile" />
        </li>
      ))}
    </ul>
  );
}
