import type { Slide } from './player';
import { t } from './t';
import { isMessage, isVideo, type MessageItem } from './types';
import { WallVideo } from './WallVideo';

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
  const { key } = slide;
  const item = slide.item as Exclude<Slide['item'], MessageItem>;
  return (
    <div className={`wall-slide${leaving ? ' leaving' : ''}`} data-photo-id={item.id} aria-hidden={leaving}>
      {isVideo(item) ? (
        <WallVideo item={item} className="wall-media" onEnded={() => onEnded(key)} onFailed={() => onFailed(key)} onDuration={(seconds) => onDuration(key, seconds)} />
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
