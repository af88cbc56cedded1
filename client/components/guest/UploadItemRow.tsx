import FileIcon from 'lucide-react/icons/file';
import ImageIcon from 'lucide-react/icons/image';
import RotateCw from 'lucide-react/icons/rotate-cw';
import VideoIcon from 'lucide-react/icons/video';
import { t } from '../../i18n';
import { fileKind, fileLabel, formatSize, statusText } from '../../uploads/format';
import type { UploadItem } from '../../uploads/types';

const ICONS = { video: VideoIcon, photo: ImageIcon, file: FileIcon };

/** One file in the upload box: label, size, progress bar, status and Retry for errored items. */
export function UploadItemRow({ item, onRetry }: { item: UploadItem; onRetry: (id: string) => void }) {
  const kind = fileKind(item.file.type);
  const Icon = ICONS[kind];
  const text = statusText(item);
  return (
    <li className={`upload-item upload-item-${item.status}`} data-status={item.status}>
      <Icon className="upload-item-icon" aria-hidden="true" size={22} />
      <div className="upload-item-main">
        <div className="upload-item-top">
          <span className="upload-item-name" title={item.file.name} dir="auto">
            {item.file.name}
          </span>
          <span className="upload-item-meta">
            <span className="badge">{fileLabel(item.file.type)}</span> {formatSize(item.file.size)}
          </span>
        </div>
        <div
          className="progress"
          role="progressbar"
          aria-label={t('upload.item.progress_label', { name: item.file.name })}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={item.progress}
        >
          <div className="progress-bar" style={{ width: `${item.progress}%` }} />
        </div>
        <div className="upload-item-status" aria-live="polite">
          {text}
        </div>
      </div>
      {item.status === 'error' && (
        <button type="button" className="btn btn-outline btn-sm" onClick={() => onRetry(item.id)} aria-label={t('upload.item.retry_label', { name: item.file.name })}>
          <RotateCw aria-hidden="true" size={16} /> {t('upload.item.retry')}
        </button>
      )}
    </li>
  );
}
