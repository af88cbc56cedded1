import { Link } from 'wouter';
import Check from 'lucide-react/icons/check';
import EyeOff from 'lucide-react/icons/eye-off';
import Trash2 from 'lucide-react/icons/trash-2';
import type { AdminPhoto } from '../../../common/api-types';
import { PhotoThumb } from './PhotoThumb';
import { formatDate } from './format';

export const DELETE_PHOTO_CONFIRM = 'Are you sure you want to permanently delete this photo? This action cannot be undone.';

interface Props {
  photos: AdminPhoto[];
  total: number;
  canDelete: boolean;
  onAction: (id: string, action: 'approve' | 'hide' | 'delete') => void;
}

/** SPEC §2: at most 6 cards; actions on hover (always shown on touch screens, see admin.css). */
export function RecentPhotos({ photos, total, canDelete, onAction }: Props) {
  if (photos.length === 0) return <p className="muted">No photos uploaded yet</p>;
  return (
    <>
      <div className="recent-photos">
        {photos.slice(0, 6).map((p) => (
          <div key={p.id} className="recent-photo" data-testid="recent-photo">
            <PhotoThumb photo={p} />
            <div className="recent-photo-info">
              <span className="recent-photo-name" title={p.original_filename}>
                {p.original_filename}
              </span>
              <span className={`badge ${p.is_visible ? 'badge-visible' : 'badge-hidden'}`}>{p.is_visible ? 'Visible' : 'Hidden'}</span>
              <span className="muted recent-photo-date">{formatDate(p.upload_timestamp)}</span>
            </div>
            <div className="recent-photo-actions">
              {!p.is_visible && (
                <button type="button" className="btn btn-sm btn-icon" aria-label="Approve" title="Approve" onClick={() => onAction(p.id, 'approve')}>
                  <Check size={18} aria-hidden="true" />
                </button>
              )}
              <button type="button" className="btn btn-sm btn-icon btn-outline" aria-label="Hide" title="Hide" onClick={() => onAction(p.id, 'hide')}>
                <EyeOff size={18} aria-hidden="true" />
              </button>
              {canDelete && (
                <button type="button" className="btn btn-sm btn-icon btn-danger" aria-label="Delete" title="Delete" onClick={() => onAction(p.id, 'delete')}>
                  <Trash2 size={18} aria-hidden="true" />
                </button>
              )}
            </div>
          </div>
        ))}
      </div>
      {total > 6 && (
        <div className="recent-photos-more">
          <Link href="/photos" className="btn btn-outline">
            View All Photos
          </Link>
        </div>
      )}
    </>
  );
}
