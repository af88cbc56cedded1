import { useEffect, useRef, useState } from 'react';
import type { GalleryItem } from '../../../common/api-types';
import { isVideo } from './types';

/** A video plays at most this long on the wall: the single layout then moves on, a tile goes back to its still. */
export const VIDEO_MAX_MS = 30_000;

interface Props {
  item: GalleryItem;
  className: string;
  /** Plays round again at its end (a tile, up longer than the clip); without it onEnded is called. */
  loop?: boolean;
  onEnded?(): void;
  onFailed?(): void;
  onDuration?(seconds: number): void;
}

/**
 * The wall's video element, for the single layout's slide and for a tile: muted and inline (a
 * wall makes no sound, and a TV's browser would otherwise take it full screen), its poster (the
 * thumbnail) until the first frame. When it leaves the page its source is detached, so the
 * decoder and its buffers are freed at once rather than at some later garbage collection.
 */
export function WallVideo({ item, className, loop, onEnded, onFailed, onDuration }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    // Autoplay can be refused (power saving); muted playback is normally allowed, so ask once more.
    v.play()?.catch(() => undefined);
    return () => {
      v.pause();
      v.removeAttribute('src');
      v.load();
    };
  }, []);
  return (
    <video
      ref={video}
      className={className}
      src={item.backblaze_url ?? undefined}
      poster={item.thumbnail_url ?? undefined}
      muted
      autoPlay
      playsInline
      loop={loop}
      preload="auto"
      onEnded={onEnded}
      onError={onFailed}
      onLoadedMetadata={(e) => onDuration?.(e.currentTarget.duration)}
    />
  );
}

/**
 * A tile's (or the spotlight's) video: its still drawn at once underneath (already loaded by the
 * board, so the tile is never blank), the clip over it, muted, looping, for at most
 * VIDEO_MAX_MS; then, or when it cannot play, the element goes and the still stays.
 */
function TileVideo({ item, className }: { item: GalleryItem; className: string }) {
  const [playing, setPlaying] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setPlaying(false), VIDEO_MAX_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <>
      <img className={className} src={item.thumbnail_url ?? undefined} alt={item.original_filename} decoding="async" />
      {playing && <WallVideo item={item} className={`${className} wall-video-over`} loop onFailed={() => setPlaying(false)} />}
    </>
  );
}

/** What a tile or the spotlight shows: the photo's display image, or a video as above. */
export function TileMedia({ item, className }: { item: GalleryItem; className: string }) {
  if (isVideo(item)) return <TileVideo item={item} className={className} />;
  return <img className={className} src={item.backblaze_url ?? undefined} alt={item.original_filename} decoding="async" />;
}
