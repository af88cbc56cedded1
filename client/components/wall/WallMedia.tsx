import { useEffect, useRef } from 'react';
import type { Slide } from './player';
import { t } from './t';
import { isMessage, isVideo, type MessageItem } from './types';

interface Props {
  slide: Slide;
  leaving: boolean;
  onEnded(key: number): void;
  onFailed(key: number): void;
  onDuration(key: number, seconds: number): void;
}

/** Long messages get a smaller type, so a thousand characters still fit the screen. */
const messageSize = (text: string) => (text.length <= 90 ? 'short' : text.length <= 320 ? 'medium' : 'long');

/** A guestbook message as a slide: the guest's words and name, set large; no sound. */
function MessageSlide({ item, leaving }: { item: MessageItem; leaving: boolean }) {
  return (
    <div className={`wall-slide wall-message-slide${leaving ? ' leaving' : ''}`} data-message-id={item.id} aria-hidden={leaving}>
      <blockquote className={`wall-message wall-message-${messageSize(item.message)}`} data-testid="wall-message">
        <p>{item.message}</p>
        {item.name && <footer data-testid="wall-message-name">{t('wall.message_by', { name: item.name })}</footer>}
      </blockquote>
    </div>
  );
}

/** One slide: the photo (display image) or the video, muted, or a guestbook message; fades in, and out when `leaving`. */
export function WallMedia(props: Props) {
  const { item } = props.slide;
  return isMessage(item) ? <MessageSlide item={item} leaving={props.leaving} /> : <PhotoSlide {...props} />;
}

function PhotoSlide({ slide, leaving, onEnded, onFailed, onDuration }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const { key } = slide;
  const item = slide.item as Exclude<Slide['item'], MessageItem>;

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
      {item.challenge && (
        <p className="wall-challenge" data-testid="wall-challenge">
          {item.challenge}
        </p>
      )}
      {item.uploader_name && (
        <p className="wall-by" data-testid="wall-by">
          {t('wall.by', { name: item.uploader_name })}
        </p>
      )}
    </div>
  );
}
