import Check from 'lucide-react/icons/check';
import SkipForward from 'lucide-react/icons/skip-forward';
import X from 'lucide-react/icons/x';
import type { AdminPhoto } from '../../../common/api-types';
import { PhotoThumb, SelectCheck } from './PhotoThumb';
import { cameraName, formatBytes, formatDate } from './format';
import { t } from './t';

interface Props {
  photo: AdminPhoto;
  canReject: boolean;
  selectMode: boolean;
  selected: boolean;
  busy: boolean;
  onSelect: (id: string) => void;
  onApprove: (id: string) => void;
  onSkip: (id: string) => void;
  onReject: (id: string) => void;
}

/** A queue card: big thumb-sized Approve / Skip / Reject targets, usable with one hand. */
export function ApprovalCard({ photo: p, canReject, selectMode, selected, busy, onSelect, onApprove, onSkip, onReject }: Props) {
  const camera = cameraName(p.camera_make, p.camera_model);
  return (
    <article className={`card approval-card${selected ? ' is-selected' : ''}`} data-testid="approval-card" data-photo-id={p.id} aria-busy={busy || undefined}>
      <div className="approval-card-media" onClick={selectMode ? () => onSelect(p.id) : undefined}>
        <PhotoThumb photo={p} playable={!selectMode} />
        {selectMode && <SelectCheck photo={p} selected={selected} onSelect={onSelect} />}
      </div>
      <div className="approval-card-info">
        <div className="photo-card-name" title={p.original_filename} dir="auto">
          {p.original_filename}
        </div>
        <div className="muted approval-card-meta">
          {formatBytes(p.file_size)}
          {p.width && p.height ? ` · ${p.width} × ${p.height}` : ''}
          {camera ? ` · ${camera}` : ''}
          <br />
          {formatDate(p.upload_timestamp)}
          {p.uploader_name && <span data-testid="photo-uploader"> · {t('admin.photos.by', { name: p.uploader_name })}</span>}
        </div>
      </div>
      {!selectMode && (
        <div className="approval-card-actions">
          <button type="button" className="btn approval-approve" disabled={busy} onClick={() => onApprove(p.id)}>
            <Check size={20} aria-hidden="true" />
            {t('admin.photos.approve')}
          </button>
          <button type="button" className="btn btn-outline" disabled={busy} onClick={() => onSkip(p.id)}>
            <SkipForward size={20} aria-hidden="true" className="flip-rtl" />
            {t('admin.photos.skip')}
          </button>
          {canReject && (
            <button type="button" className="btn btn-danger" disabled={busy} onClick={() => onReject(p.id)}>
              <X size={20} aria-hidden="true" />
              {t('admin.photos.reject')}
            </button>
          )}
        </div>
      )}
    </article>
  );
}
