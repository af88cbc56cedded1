import ImageOff from 'lucide-react/icons/image-off';
import Video from 'lucide-react/icons/video';
import FileIcon from 'lucide-react/icons/file';
import Play from 'lucide-react/icons/play';
import type { AdminPhoto } from '../../../common/api-types';
import { isImage, isVideo } from './format';

/** Thumbnail with placeholders for missing thumbnails, videos and other types (SPEC §2). */
export function PhotoThumb({ photo }: { photo: AdminPhoto }) {
  const video = isVideo(photo.content_type);
  if (photo.thumbnail_url) {
    return (
      <div className="photo-thumb">
        <img src={photo.thumbnail_url} alt={photo.original_filename} loading="lazy" decoding="async" />
        {video && (
          <span className="photo-thumb-play" aria-label="Video">
            <Play size={22} aria-hidden="true" />
          </span>
        )}
      </div>
    );
  }
  const [Icon, text] = video ? [Video, 'Video'] : isImage(photo.content_type) ? [ImageOff, 'No thumbnail'] : [FileIcon, 'File'];
  return (
    <div className="photo-thumb photo-thumb-placeholder" data-placeholder={video ? 'video' : isImage(photo.content_type) ? 'image' : 'file'}>
      <Icon size={36} aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}

/** The checkbox laid over a thumbnail in select mode (photo cards and approval cards). */
export function SelectCheck({ photo, selected, onSelect }: { photo: AdminPhoto; selected: boolean; onSelect: (id: string) => void }) {
  return (
    <label className="photo-card-check" onClick={(e) => e.stopPropagation()}>
      <input type="checkbox" checked={selected} onChange={() => onSelect(photo.id)} />
      <span className="sr-only">Select {photo.original_filename}</span>
    </label>
  );
}
