import ImageOff from 'lucide-react/icons/image-off';
import Video from 'lucide-react/icons/video';
import FileIcon from 'lucide-react/icons/file';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Play from 'lucide-react/icons/play';
import Hourglass from 'lucide-react/icons/hourglass';
import type { ReactNode } from 'react';
import type { AdminPhoto } from '../../../common/api-types';
import { isImage, isVideo } from './format';
import { t } from './t';

/**
 * Thumbnail with placeholders for missing thumbnails, videos and other types (SPEC §2). A video
 * whose web copy exists plays in place when `playable` (not while cards are being selected).
 */
export function PhotoThumb({ photo, playable = false }: { photo: AdminPhoto; playable?: boolean }) {
  const video = isVideo(photo.content_type);
  // Processing failed: say so, whether or not a thumbnail was made before it failed.
  if (photo.status === 'error') {
    return (
      <div className="photo-thumb photo-thumb-placeholder" data-placeholder="error" title={photo.processing_error ?? undefined}>
        <ImageOff size={36} aria-hidden="true" />
        <span>{video ? t('admin.thumb.video_unshowable') : t('admin.thumb.photo_unshowable')}</span>
      </div>
    );
  }
  // A video is listed for guests only once its web copy exists; until then the panel says why.
  // A file waiting for a tool that is not installed says which one.
  const waiting = photo.waiting_for;
  const preparing = waiting ? (
    <span className="photo-thumb-preparing photo-thumb-waiting" data-testid="waiting-for-tool" title={t('admin.thumb.waiting_for_tool_title', { tool: waiting })}>
      <Hourglass size={16} aria-hidden="true" />
      {t('admin.thumb.waiting_for_tool', { tool: waiting })}
    </span>
  ) : video && photo.status === 'processing' && (
    <span className="photo-thumb-preparing" data-testid="preparing-video">
      <LoaderCircle size={16} className="spin" aria-hidden="true" />
      {t('admin.thumb.preparing')}
    </span>
  );
  if (playable && video && photo.display_url && photo.thumbnail_url && photo.status === 'complete') {
    return (
      <div className="photo-thumb">
        <video src={photo.display_url} poster={photo.thumbnail_url ?? undefined} controls preload="none" playsInline aria-label={photo.original_filename} />
      </div>
    );
  }
  if (photo.thumbnail_url) {
    return (
      <div className="photo-thumb">
        <img src={photo.thumbnail_url} alt={photo.original_filename} loading="lazy" decoding="async" />
        {preparing}
        {video && !preparing && (
          <span className="photo-thumb-play" role="img" aria-label={t('admin.thumb.video')}>
            <Play size={22} aria-hidden="true" />
          </span>
        )}
      </div>
    );
  }
  const [Icon, text] = video ? [Video, t('admin.thumb.video')] : isImage(photo.content_type) ? [ImageOff, t('admin.thumb.none')] : [FileIcon, t('admin.thumb.file')];
  return (
    <div className="photo-thumb photo-thumb-placeholder" data-placeholder={video ? 'video' : isImage(photo.content_type) ? 'image' : 'file'}>
      <Icon size={36} aria-hidden="true" />
      <span>{text}</span>
      {preparing}
    </div>
  );
}

interface CardMediaProps {
  className: string;
  photo: AdminPhoto;
  selectMode: boolean;
  selected: boolean;
  onSelect: (id: string) => void;
  children?: ReactNode;
}

/**
 * The thumbnail of a photo card or an approval card. In select mode a tap anywhere on it selects
 * the photo, and a video does not play.
 */
export function CardMedia({ className, photo, selectMode, selected, onSelect, children }: CardMediaProps) {
  return (
    <div className={className} onClick={selectMode ? () => onSelect(photo.id) : undefined}>
      <PhotoThumb photo={photo} playable={!selectMode} />
      {selectMode && <SelectCheck photo={photo} selected={selected} onSelect={onSelect} />}
      {children}
    </div>
  );
}

/** A card's file name, whole in its tooltip where the card cuts it short. */
export function CardName({ photo }: { photo: AdminPhoto }) {
  return (
    <div className="photo-card-name" title={photo.original_filename} dir="auto">
      {photo.original_filename}
    </div>
  );
}

/** The checkbox laid over a thumbnail in select mode. */
function SelectCheck({ photo, selected, onSelect }: { photo: AdminPhoto; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <label className="photo-card-check" onClick={(e) => e.stopPropagation()}>
      <input type="checkbox" checked={selected} onChange={() => onSelect(photo.id)} />
      <span className="sr-only">{t('admin.thumb.select', { name: photo.original_filename })}</span>
    </label>
  );
}
