import '../../shared-chunk';
import Trophy from 'lucide-react/icons/trophy';
import X from 'lucide-react/icons/x';
import { useEffect, useRef, useState } from 'react';
import type { GalleryItem } from '../../../common/api-types';
import { t } from '../../i18n';
import { formatDateTime } from '../../i18n/format';
import { isVideo } from './GalleryGrid';
import { HeartButton } from './Heart';

/** A time in the wedding's zone and the page's language; null when absent or unreadable. */
function when(iso: string | null): string | null {
  if (!iso || Number.isNaN(Date.parse(iso))) return null;
  return formatDateTime(iso);
}

/**
 * "Canon EOS 40D": the make is left out when the model already starts with its first word
 * ("NIKON CORPORATION" + "NIKON D70" is "NIKON D70"), the same rule as the stats' camera names.
 */
export function cameraName(make: string | null, model: string | null): string | null {
  const mk = make?.trim().replace(/\s+/g, ' ') || '';
  const md = model?.trim().replace(/\s+/g, ' ') || '';
  if (!mk || !md) return md || mk || null;
  const first = mk.split(' ')[0].toLowerCase();
  const lower = md.toLowerCase();
  if (lower.startsWith(mk.toLowerCase()) || lower === first || lower.startsWith(first + ' ') || lower.startsWith(first + '-')) return md;
  return `${mk} ${md}`;
}

const FOCUSABLE = 'button, [href], video[controls], [tabindex]:not([tabindex="-1"])';

interface Props {
  item: GalleryItem;
  onClose: () => void;
  onHeart: (item: GalleryItem) => void;
  /** Offer "Download" (the couple's setting guest_downloads). */
  download?: boolean;
}

/** Full-screen viewer (SPEC §2): closes with its button, a click outside, or Escape. */
export function MediaViewer({ item, onClose, onHeart, download }: Props) {
  const video = isVideo(item);
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  // An approved photo whose processing failed has neither: the viewer says so instead of loading forever.
  const imageSrc = item.backblaze_url ?? item.thumbnail_url;
  const dialog = useRef<HTMLDivElement>(null);
  const closeBtn = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    setLoaded(false);
    setFailed(false);
  }, [item.id]);

  useEffect(() => {
    closeBtn.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        onClose();
      } else if (e.key === 'Tab' && dialog.current) {
        // Keep keyboard focus inside the dialog while it is open.
        const els = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE));
        if (!els.length) return;
        const first = els[0];
        const last = els[els.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [onClose]);

  const camera = cameraName(item.camera_make, item.camera_model);
  const uploaded = when(item.upload_timestamp);
  const taken = when(item.date_taken);
  const fallback = t('viewer.no_video_support');

  return (
    <div className="viewer-backdrop" onClick={(e) => e.target === e.currentTarget && onClose()} data-testid="viewer-backdrop">
      <div className="viewer" role="dialog" aria-modal="true" aria-label={item.original_filename} ref={dialog}>
        <button type="button" className="viewer-close btn btn-icon" onClick={onClose} aria-label={t('viewer.close')} ref={closeBtn}>
          <X aria-hidden="true" size={22} />
        </button>
        <div className="viewer-media" onClick={(e) => e.target === e.currentTarget && onClose()}>
          {!loaded && !failed && (video || imageSrc) && (
            <p className="viewer-loading" role="status">
              {video ? t('viewer.loading_video') : t('viewer.loading_image')}
            </p>
          )}
          {video ? (
            failed ? (
              <p className="viewer-fallback">{fallback}</p>
            ) : (
              <video
                key={item.id}
                src={item.backblaze_url ?? undefined}
                poster={item.thumbnail_url ?? undefined}
                controls
                playsInline
                preload="metadata"
                onLoadedMetadata={() => setLoaded(true)}
                onError={() => setFailed(true)}
              >
                {fallback}
              </video>
            )
          ) : imageSrc && !failed ? (
            <img key={item.id} src={imageSrc} alt={item.original_filename} onLoad={() => setLoaded(true)} onError={() => setFailed(true)} />
          ) : (
            <p className="viewer-fallback">{t('gallery.unshowable')}</p>
          )}
        </div>
        <div className="viewer-actions">
          <HeartButton item={item} onHeart={onHeart} className="btn btn-sm" />
          {download && (
            <a className="btn btn-sm" href={`/api/photos/${item.id}/download`} download>
              {t('viewer.download')}
            </a>
          )}
        </div>
        {item.uploader_name && (
          <p className="viewer-shared-by" data-testid="viewer-shared-by">
            {t('viewer.shared_by', { name: item.uploader_name })}
          </p>
        )}
        {item.challenge && (
          <p className="viewer-challenge" data-testid="viewer-challenge">
            <Trophy aria-hidden="true" size={16} /> <span dir="auto">{item.challenge}</span>
          </p>
        )}
        <dl className="viewer-details">
          {uploaded && (
            <div>
              <dt>{t('viewer.uploaded')}</dt>
              <dd data-testid="viewer-uploaded">{uploaded}</dd>
            </div>
          )}
          {taken && (
            <div>
              <dt>{t('viewer.taken')}</dt>
              <dd data-testid="viewer-taken">{taken}</dd>
            </div>
          )}
          {camera && (
            <div>
              <dt>{t('viewer.camera')}</dt>
              <dd data-testid="viewer-camera">{camera}</dd>
            </div>
          )}
          {item.width != null && item.height != null && (
            <div>
              <dt>{t('viewer.dimensions')}</dt>
              <dd data-testid="viewer-dimensions" dir="ltr">
                {item.width} × {item.height}
              </dd>
            </div>
          )}
        </dl>
      </div>
    </div>
  );
}
