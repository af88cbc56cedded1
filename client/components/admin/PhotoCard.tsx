import type { ComponentProps } from 'react';
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import Download from 'lucide-react/icons/download';
import RotateCw from 'lucide-react/icons/rotate-cw';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Trash2 from 'lucide-react/icons/trash-2';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Star from 'lucide-react/icons/star';
import { IconButton } from './IconButton';
import { PhotoFlags } from './PhotoFlags';
import type { AdminPhoto, Permissions } from '../../../common/api-types';
import { CardMedia, CardName } from './PhotoThumb';
import { cameraName, formatBytes, formatDate, isImage, isVideo } from './format';
import { t } from './t';

export type CardAction = 'toggle' | 'highlight' | 'download' | 'rotate' | 'regenerate' | 'delete';

interface Props {
  photo: AdminPhoto;
  perms: Permissions;
  selectMode: boolean;
  selected: boolean;
  busy: boolean;
  onSelect: (id: string) => void;
  onAction: (photo: AdminPhoto, action: CardAction) => void;
}

/** One of a card's facts: its name, and the value (the props are the value's). */
function Fact({ name, children, ...dd }: ComponentProps<'dd'> & { name: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd {...dd}>{children}</dd>
    </div>
  );
}

/** One photo in the All mode grid (SPEC §2 /admin/photos). */
export function PhotoCard({ photo: p, perms, selectMode, selected, busy, onSelect, onAction }: Props) {
  const camera = cameraName(p.camera_make, p.camera_model);
  const canTransform = perms.can_moderate_photos && isImage(p.content_type);
  return (
    <article
      className={`card photo-card${selected ? ' is-selected' : ''}${p.is_visible ? '' : ' is-hidden'}`}
      data-testid="photo-card"
      data-photo-id={p.id}
      aria-busy={busy || undefined}
    >
      <CardMedia className="photo-card-media" photo={p} selectMode={selectMode} selected={selected} onSelect={onSelect}>
        <span className={`badge photo-card-state ${p.is_visible ? 'badge-visible' : 'badge-hidden'}`}>
          {p.is_visible ? <Eye size={14} aria-hidden="true" /> : <EyeOff size={14} aria-hidden="true" />}
          {p.is_visible ? t('admin.photos.visible') : t('admin.photos.hidden')}
        </span>
        {/* A video's thumbnail says "Preparing video" itself. */}
        {p.status === 'processing' && !isVideo(p.content_type) && <span className="badge photo-card-status">{t('admin.photos.processing')}</span>}
        {p.status === 'error' && <span className="badge badge-error photo-card-status">{t('admin.photos.processing_failed')}</span>}
        {busy && (
          <div className="photo-card-busy" role="status">
            <LoaderCircle size={28} className="spin" aria-hidden="true" />
            <span>{t('admin.photos.working')}</span>
          </div>
        )}
      </CardMedia>
      <div className="photo-card-info">
        <CardName photo={p} />
        <dl className="photo-card-meta">
          <Fact name={t('admin.photos.size')}>{formatBytes(p.file_size)}</Fact>
          {p.width && p.height ? (
            <Fact name={t('admin.photos.dimensions')} data-testid="photo-dimensions" dir="ltr">
              {p.width} × {p.height}
            </Fact>
          ) : null}
          <Fact name={t('admin.photos.uploaded')}>{formatDate(p.upload_timestamp)}</Fact>
          {p.uploader_name && (
            <Fact name={t('admin.photos.shared_by')} data-testid="photo-uploader" dir="auto">
              {p.uploader_name}
            </Fact>
          )}
          {camera && <Fact name={t('admin.photos.camera')}>{camera}</Fact>}
          {p.hearts > 0 && (
            <Fact name={t('admin.photos.hearts')} data-testid="photo-hearts">
              {p.hearts}
            </Fact>
          )}
        </dl>
        <PhotoFlags photo={p} />
      </div>
      <div className="photo-card-actions">
        <button type="button" className="btn btn-sm btn-outline" disabled={busy} onClick={() => onAction(p, 'toggle')}>
          {p.is_visible ? <EyeOff size={16} aria-hidden="true" /> : <Eye size={16} aria-hidden="true" />}
          {p.is_visible ? t('admin.photos.hide') : t('admin.photos.show')}
        </button>
        {perms.can_moderate_photos && (
          <IconButton className={`btn btn-sm btn-icon${p.highlighted ? '' : ' btn-outline'}`} aria-pressed={p.highlighted} label={t('admin.photos.highlight')} disabled={busy} onClick={() => onAction(p, 'highlight')}>
            <Star size={16} aria-hidden="true" fill={p.highlighted ? 'currentColor' : 'none'} />
          </IconButton>
        )}
        <IconButton className="btn btn-sm btn-outline btn-icon" label={t('admin.photos.download')} disabled={busy} onClick={() => onAction(p, 'download')}>
          <Download size={16} aria-hidden="true" />
        </IconButton>
        {canTransform && (
          <>
            <IconButton className="btn btn-sm btn-outline btn-icon" label={t('admin.photos.rotate')} disabled={busy} onClick={() => onAction(p, 'rotate')}>
              <RotateCw size={16} aria-hidden="true" />
            </IconButton>
            <IconButton className="btn btn-sm btn-outline btn-icon" label={t('admin.photos.regenerate')} disabled={busy} onClick={() => onAction(p, 'regenerate')}>
              <RefreshCw size={16} aria-hidden="true" />
            </IconButton>
          </>
        )}
        {perms.can_delete_photos && (
          <IconButton className="btn btn-sm btn-danger btn-icon" label={t('admin.photos.delete_permanently')} disabled={busy} onClick={() => onAction(p, 'delete')}>
            <Trash2 size={16} aria-hidden="true" />
          </IconButton>
        )}
      </div>
    </article>
  );
}
