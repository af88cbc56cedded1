import Check from 'lucide-react/icons/check';
import SkipForward from 'lucide-react/icons/skip-forward';
import X from 'lucide-react/icons/x';
import Layers from 'lucide-react/icons/layers';
import { PhotoFlags } from './PhotoFlags';
import type { AdminPhoto } from '../../../common/api-types';
import { CardMedia, CardName } from './PhotoThumb';
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
  /** The other photos of its group of similar shots still waiting (best first), when it leads a stack. */
  others?: AdminPhoto[];
  onKeepBest?: (id: string) => void;
  /** Brings another photo of the stack to the front. */
  onPick?: (id: string) => void;
  /** The card the queue's keys act on (shown large). */
  focused?: boolean;
  /** R was pressed on it: Enter rejects. */
  confirming?: boolean;
}

/** A queue card: big thumb-sized Approve / Skip / Reject targets, usable with one hand. */
export function ApprovalCard(props: Props) {
  const { photo: p, canReject, selectMode, selected, busy, onSelect, onApprove, onSkip, onReject, others = [], focused, confirming } = props;
  const camera = cameraName(p.camera_make, p.camera_model);
  return (
    <article
      className={`card approval-card${selected ? ' is-selected' : ''}${focused ? ' is-focused' : ''}${others.length ? ' is-stack' : ''}`}
      data-testid="approval-card"
      data-photo-id={p.id}
      aria-busy={busy || undefined}
      aria-current={focused || undefined}
      tabIndex={-1}
    >
      <CardMedia className="approval-card-media" photo={p} selectMode={selectMode} selected={selected} onSelect={onSelect} />
      <div className="approval-card-info">
        <CardName photo={p} />
        <div className="muted approval-card-meta">
          {formatBytes(p.file_size)}
          {p.width && p.height ? ` · ${p.width} × ${p.height}` : ''}
          {camera ? ` · ${camera}` : ''}
          <br />
          {formatDate(p.upload_timestamp)}
          {p.uploader_name && <span data-testid="photo-uploader"> · {t('admin.photos.by', { name: p.uploader_name })}</span>}
        </div>
        <PhotoFlags photo={p} />
        {others.length > 0 && (
          <div className="approval-stack" data-testid="approval-stack">
            <p className="approval-stack-title">
              <Layers size={16} aria-hidden="true" /> {t('admin.queue.similar', { count: others.length + 1 })}
            </p>
            <ul className="approval-stack-others">
              {others.map((o) => (
                <li key={o.id}>
                  <button type="button" className="approval-stack-pick" data-photo-id={o.id} aria-label={t('admin.queue.bring_front', { name: o.original_filename })} onClick={() => props.onPick?.(o.id)}>
                    {o.thumbnail_url ? <img src={o.thumbnail_url} alt="" loading="lazy" /> : <Layers size={16} aria-hidden="true" />}
                  </button>
                </li>
              ))}
            </ul>
            <button type="button" className="btn btn-sm approval-keep-best" disabled={busy} onClick={() => props.onKeepBest?.(p.id)}>
              {t('admin.queue.keep_best')}
            </button>
          </div>
        )}
        {confirming && (
          <p className="approval-confirm" role="alert">
            {t('admin.queue.confirm_reject')}
          </p>
        )}
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
