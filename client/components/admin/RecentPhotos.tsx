import { Link } from 'wouter';
import Check from 'lucide-react/icons/check';
import EyeOff from 'lucide-react/icons/eye-off';
import Trash2 from 'lucide-react/icons/trash-2';
import type { AdminPhoto } from '../../../common/api-types';
import { IconButton } from './IconButton';
import { PhotoThumb } from './PhotoThumb';
import { formatDate } from './format';
import { t } from './t';

export const deletePhotoConfirm = () => t('admin.photos.confirm_delete');

interface Props {
  photos: AdminPhoto[];
  total: number;
  canDelete: boolean;
  onAction: (id: string, action: 'approve' | 'hide' | 'delete') => void;
}

/** SPEC §2: at most 6 cards; actions on hover (always shown on touch screens, see admin.css). */
export function RecentPhotos({ photos, total, canDelete, onAction }: Props) {
  if (photos.length === 0) return <p className="muted">{t('admin.dashboard.no_photos')}</p>;
  return (
    <>
      <div className="recent-photos">
        {photos.slice(0, 6).map((p) => (
          <div key={p.id} className="recent-photo" data-testid="recent-photo">
            <PhotoThumb photo={p} />
            <div className="recent-photo-info">
              <span className="recent-photo-name" title={p.original_filename} dir="auto">
                {p.original_filename}
              </span>
              <span className={`badge ${p.is_visible ? 'badge-visible' : 'badge-hidden'}`}>{p.is_visible ? t('admin.photos.visible') : t('admin.photos.hidden')}</span>
              <span className="muted recent-photo-date">{formatDate(p.upload_timestamp)}</span>
            </div>
            <div className="recent-photo-actions">
              {!p.is_visible && (
                <IconButton className="btn btn-sm btn-icon" label={t('admin.photos.approve')} onClick={() => onAction(p.id, 'approve')}>
                  <Check size={18} aria-hidden="true" />
                </IconButton>
              )}
              <IconButton className="btn btn-sm btn-icon btn-outline" label={t('admin.photos.hide')} onClick={() => onAction(p.id, 'hide')}>
                <EyeOff size={18} aria-hidden="true" />
              </IconButton>
              {canDelete && (
                <IconButton className="btn btn-sm btn-icon btn-danger" label={t('admin.photos.delete')} onClick={() => onAction(p.id, 'delete')}>
                  <Trash2 size={18} aria-hidden="true" />
                </IconButton>
              )}
            </div>
          </div>
        ))}
      </div>
      {total > 6 && (
        <div className="recent-photos-more">
          <Link href="/photos" className="btn btn-outline">
            {t('admin.dashboard.view_all')}
          </Link>
        </div>
      )}
    </>
  );
}
