import { useSignals } from '@preact/signals-react/runtime';
import CircleCheck from 'lucide-react/icons/circle-check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Upload from 'lucide-react/icons/upload';
import { settings } from '../../state/settings';
import { uploadBox, uploadEngine, uploadItems } from '../../state/uploads';
import { ACCEPT } from '../../uploads/constants';
import { summaryText } from '../../uploads/format';
import { t } from '../../i18n';
import { MSG } from '../../uploads/messages';
import { toast } from '../ui/toast';
import { UploadItemRow } from './UploadItemRow';
import { useDropZone, type FileRejection } from './drop-zone';

const CLEARABLE = new Set(['uploaded', 'processing', 'complete', 'duplicate', 'error']);

/**
 * SPEC §5's wording for the drop zone's refusals ("File type must be {types}", "File is larger
 * than N bytes", ...), in the page's language: read from react-dropzone's code, its English
 * sentence giving only the figures.
 */
export function rejectionMessage(r: FileRejection): string {
  const e = r.errors[0];
  if (!e) return t('upload.reject.title');
  const bytes = Number(/(\d+)/.exec(e.message)?.[1] ?? 0);
  switch (e.code) {
    case 'too-many-files':
      return t('upload.reject.too_many');
    case 'file-invalid-type':
      // Only the list: "one of" belongs to the sentence, so each language writes its own.
      return t('upload.reject.type', { types: e.message.replace(/^File type must be (one of )?/, '') });
    case 'file-too-large':
      return t('upload.reject.too_large', { bytes });
    case 'file-too-small':
      return t('upload.reject.too_small', { bytes });
    default:
      return e.message;
  }
}

export function UploadBox() {
  useSignals();
  const box = uploadBox.value;
  const items = uploadItems.value;

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    for (const r of rejected) toast({ title: t('upload.reject.title'), description: t('upload.reject.text', { name: r.file.name, reason: rejectionMessage(r) }), variant: 'destructive' });
    if (!accepted.length) return;
    if (settings.value?.uploads_enabled === false) {
      toast({ title: t(MSG.uploadsOffTitle), description: t(MSG.uploadsOff), variant: 'destructive' });
      return;
    }
    uploadEngine.addFiles(accepted);
  };

  const { rootProps, inputProps, isDragActive, open } = useDropZone({ onDrop, accept: ACCEPT, disabled: box !== 'idle' });

  return (
    <section className="card upload-card" aria-labelledby="upload-title">
      <h2 id="upload-title" className="sr-only">
        {t('upload.box.title')}
      </h2>
      <div {...rootProps} className={`dropzone dropzone-${box}${isDragActive ? ' dropzone-active' : ''}`}>
        <input {...inputProps} aria-label={t('upload.box.input_label')} data-testid="file-input" />
        {box === 'idle' && (
          <>
            <Upload className="dropzone-icon" aria-hidden="true" size={40} />
            <p className="dropzone-title">{isDragActive ? t('upload.box.drop_here') : t('upload.box.drag_here')}</p>
            <p className="muted dropzone-or">{t('upload.box.or')}</p>
            <button type="button" className="btn" onClick={open}>
              {t('upload.box.select')}
            </button>
            <p className="dropzone-hint muted">{t('upload.box.hint')}</p>
          </>
        )}
        {box === 'uploading' && (
          <div className="dropzone-state" role="status">
            <LoaderCircle className="spin dropzone-icon" aria-hidden="true" size={40} />
            <p className="dropzone-title">{t('upload.box.uploading')}</p>
            <p className="muted">{t('upload.box.keep_open')}</p>
          </div>
        )}
        {box === 'success' && (
          <div className="dropzone-state" role="status">
            <CircleCheck className="dropzone-icon dropzone-icon-success" aria-hidden="true" size={40} />
            <p className="dropzone-title">{t('upload.box.thanks')}</p>
            <p className="muted">{t('upload.box.done')}</p>
          </div>
        )}
      </div>
      {items.length > 0 && (
        <div className="upload-list-wrap">
          <div className="upload-list-head">
            <h3>{t('upload.list.title')}</h3>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => uploadEngine.clearCompleted()}
              disabled={!items.some((i) => CLEARABLE.has(i.status))}
            >
              {t('upload.list.clear')}
            </button>
          </div>
          <p className="upload-summary" role="status" data-testid="upload-summary">
            {summaryText(items)}
          </p>
          <ul className="upload-list">
            {items.map((item) => (
              <UploadItemRow key={item.id} item={item} onRetry={(id) => uploadEngine.retry(id)} />
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
