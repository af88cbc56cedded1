import { useEffect, useRef } from 'react';
import type { Slide } from './player';
import { t } from '../../i18n';
import { isVideo } from './types';

interface Props {
  slide: Slide;
  leaving: boolean;
  onEnded(key: number): void;
  onFailed(key: number): void;
  onDuration(key: number, seconds: number): void;
}

/** One slide: the photo (display image) or the video, muted; fades in, and out when `leaving`. */
export function WallMedia({ slide, leaving, onEnded, onFailed, onDuration }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const { item, key } = slide;

  useEffect(() => {
    const v = video.current;
    if (!v) return;
    // Autoplay can be refused (power saving); muted playback is normally allowed, so ask once more.
    v.play().catch(() => undefined);
    return () => {
      // Detaching the source frees the decoder and its buffers now rather than at some later GC.
      v.pause();
      v.removeAttribute('src');
      v.load();
    };
  }, []);

  return (
    <div className={`wall-slide${leaving ? ' leaving' : ''}`} data-photo-id={item.id} aria-hidden={leaving}>
      {isVideo(item) ? (
        <video
          ref={video}
          className="wall-media"
          src={item.backblaze_url ?? undefined}
          poster={item.thumbnail_url ?? undefined}
          muted
          autoPlay
          playsInline
          preload="auto"
          onEnded={() => onEnded(key)}
          onError={() => onFailed(key)}
          onLoadedMetadata={(e) => onDuration(key, e.currentTarget.duration)}
        />
      ) : (
        <img className="wall-media" src={item.backblaze_url ?? undefined} alt={item.original_filename} decoding="async" onError={() => onFailed(key)} />
      )}
      {item.uploader_name && (
        <p className="wall-by" data-testid="wall-by">
          {t('wall.by', { name: item.uploader_name })}
        </p>
      )}
    </div>
  );
}
