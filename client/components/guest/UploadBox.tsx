import { useSignals } from '@preact/signals-react/runtime';
import CircleCheck from 'lucide-react/icons/circle-check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Upload from 'lucide-react/icons/upload';
import { type FileRejection, useDropzone } from 'react-dropzone';
import { settings } from '../../state/settings';
import { uploadBox, uploadEngine, uploadItems } from '../../state/uploads';
import { ACCEPT } from '../../uploads/constants';
import { summaryText } from '../../uploads/format';
import { MSG } from '../../uploads/messages';
import { toast } from '../ui/toast';
import { UploadItemRow } from './UploadItemRow';

const CLEARABLE = new Set(['uploaded', 'processing', 'complete', 'duplicate', 'error']);

/** SPEC §5's wording for the drop zone's refusals ("File is larger than N bytes", ...). */
export function rejectionMessage(r: FileRejection): string {
  const e = r.errors[0];
  if (!e) return 'File not accepted';
  if (e.code === 'too-many-files') return 'Too many files';
  return e.message;
}

export function UploadBox() {
  useSignals();
  const box = uploadBox.value;
  const items = uploadItems.value;

  const onDrop = (accepted: File[], rejected: FileRejection[]) => {
    for (const r of rejected) toast({ title: 'File not accepted', description: `${r.file.name}: ${rejectionMessage(r)}`, variant: 'destructive' });
    if (!accepted.length) return;
    if (settings.value?.uploads_enabled === false) {
      toast({ title: MSG.uploadsOffTitle, description: MSG.uploadsOff, variant: 'destructive' });
      return;
    }
    uploadEngine.addFiles(accepted);
  };

  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop,
    accept: ACCEPT,
    multiple: true,
    disabled: box !== 'idle',
    noClick: true,
    noKeyboard: true,
  });

  return (
    <section className="card upload-card" aria-labelledby="upload-title">
      <h2 id="upload-title" className="sr-only">
        Upload photos and videos
      </h2>
      <div {...getRootProps({ className: `dropzone dropzone-${box}${isDragActive ? ' dropzone-active' : ''}` })}>
        <input {...getInputProps({ 'aria-label': 'Choose photos and videos to upload' })} data-testid="file-input" />
        {box === 'idle' && (
          <>
            <Upload className="dropzone-icon" aria-hidden="true" size={40} />
            <p className="dropzone-title">{isDragActive ? 'Drop your photos and videos here' : 'Drag and drop photos and videos here'}</p>
            <p className="muted dropzone-or">or</p>
            <button type="button" className="btn" onClick={open}>
              Select Photos &amp; Videos
            </button>
            <p className="dropzone-hint muted">JPEG, PNG, GIF, WebP, MP4, MOV or AVI · photos and videos up to 2GB each</p>
          </>
        )}
        {box === 'uploading' && (
          <div className="dropzone-state" role="status">
            <LoaderCircle className="spin dropzone-icon" aria-hidden="true" size={40} />
            <p className="dropzone-title">Uploading your memories...</p>
            <p className="muted">Please keep this page open until every file is done.</p>
          </div>
        )}
        {box === 'success' && (
          <div className="dropzone-state" role="status">
            <CircleCheck className="dropzone-icon dropzone-icon-success" aria-hidden="true" size={40} />
            <p className="dropzone-title">Thank you for sharing!</p>
            <p className="muted">Your photos and videos have been uploaded.</p>
          </div>
        )}
      </div>
      {items.length > 0 && (
        <div className="upload-list-wrap">
          <div className="upload-list-head">
            <h3>Your uploads</h3>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => uploadEngine.clearCompleted()}
              disabled={!items.some((i) => CLEARABLE.has(i.status))}
            >
              Clear Completed
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
