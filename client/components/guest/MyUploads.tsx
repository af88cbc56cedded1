import { useSignals } from '@preact/signals-react/runtime';
import ImageIcon from 'lucide-react/icons/image';
import Trash2 from 'lucide-react/icons/trash-2';
import VideoIcon from 'lucide-react/icons/video';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { MyUpload } from '../../../common/api-types';
import { deleteMyUpload, fetchMyUploads } from '../../api/my-uploads';
import { t } from '../../i18n';
import { finishedCount, uploadItems } from '../../state/uploads';
import { toast } from '../ui/toast';

/** How many of the guest's files are fetched at a time (the server's most). */
const PAGE = 100;

/** Where a guest's file stands, in words. */
export function myUploadState(p: Pick<MyUpload, 'status' | 'is_visible'>): { text: string; tone: 'error' | 'visible' | 'waiting' } {
  if (p.status === 'error') return { text: t('upload.mine.state_error'), tone: 'error' };
  if (p.is_visible) return { text: t('upload.mine.state_visible'), tone: 'visible' };
  return { text: t('upload.mine.state_waiting'), tone: 'waiting' };
}

function MyUploadRow({ photo: p, onDeleted }: { photo: MyUpload; onDeleted: (id: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const state = myUploadState(p);
  const Icon = p.content_type.startsWith('video/') ? VideoIcon : ImageIcon;

  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);

  const cancel = () => {
    setConfirming(false);
    // Back to the button the guest came from, for keyboard users.
    setTimeout(() => deleteRef.current?.focus());
  };
  const remove = async () => {
    setBusy(true);
    try {
      await deleteMyUpload(p.id);
      toast({ title: t('upload.mine.deleted'), description: t('upload.mine.deleted_text', { name: p.original_filename }), variant: 'success' });
      onDeleted(p.id);
    } catch {
      setBusy(false);
      toast({ title: t('upload.mine.delete_failed'), description: t('upload.mine.delete_failed_text', { name: p.original_filename }), variant: 'destructive' });
    }
  };

  return (
    <li className={`my-upload my-upload-${state.tone}`} data-testid="my-upload" data-photo-id={p.id}>
      {p.thumbnail_url ? (
        <img className="my-upload-thumb" src={p.thumbnail_url} alt="" loading="lazy" />
      ) : (
        <span className="my-upload-thumb my-upload-placeholder" aria-hidden="true">
          <Icon size={22} />
        </span>
      )}
      <div className="my-upload-main">
        <span className="my-upload-name" title={p.original_filename} dir="auto">
          {p.original_filename}
        </span>
        <span className="my-upload-state" data-testid="my-upload-state">
          {state.text}
        </span>
      </div>
      {confirming ? (
        <div className="my-upload-confirm" role="group" aria-label={t('upload.mine.confirm_label', { name: p.original_filename })}>
          <span className="my-upload-question">{t('upload.mine.confirm')}</span>
          <button ref={confirmRef} type="button" className="btn btn-sm btn-danger" disabled={busy} onClick={() => void remove()}>
            {t('upload.mine.confirm_yes')}
          </button>
          <button type="button" className="btn btn-sm btn-outline" disabled={busy} onClick={cancel}>
            {t('upload.mine.cancel')}
          </button>
        </div>
      ) : (
        <button ref={deleteRef} type="button" className="btn btn-sm btn-outline" aria-label={t('upload.mine.delete_label', { name: p.original_filename })} onClick={() => setConfirming(true)}>
          <Trash2 size={16} aria-hidden="true" /> {t('upload.mine.delete')}
        </button>
      )}
    </li>
  );
}

/** "My uploads": this guest's files as the server has them (so the list survives a reload). */
export function MyUploads() {
  useSignals();
  const finished = finishedCount.value;
  const stored = uploadItems.value.filter((i) => i.photoId).length;
  const [photos, setPhotos] = useState<MyUpload[] | null>(null);
  const [more, setMore] = useState(false);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async (after?: MyUpload[]) => {
    try {
      const r = await fetchMyUploads(PAGE, after?.length ?? 0);
      setPhotos(after ? [...after, ...r.photos.filter((p) => !after.some((a) => a.id === p.id))] : r.photos);
      setMore(r.pagination.has_more);
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);

  // Loaded when the page opens, and again as each of this guest's files reaches the server and is done.
  useEffect(() => {
    void load();
  }, [load, finished, stored]);

  return (
    <section className="card my-uploads" aria-labelledby="my-uploads-title">
      <h2 id="my-uploads-title">{t('upload.mine.title')}</h2>
      {failed && (
        <p className="my-uploads-error">
          {t('upload.mine.load_failed')}{' '}
          <button type="button" className="btn btn-sm btn-outline" onClick={() => void load()}>
            {t('upload.mine.retry')}
          </button>
        </p>
      )}
      {photos && photos.length === 0 && <p className="muted">{t('upload.mine.empty')}</p>}
      {photos && photos.length > 0 && (
        <ul className="my-upload-list">
          {photos.map((p) => (
            <MyUploadRow key={p.id} photo={p} onDeleted={(id) => setPhotos((list) => (list ?? []).filter((x) => x.id !== id))} />
          ))}
        </ul>
      )}
      {photos && more && (
        <button type="button" className="btn btn-outline btn-sm my-uploads-more" onClick={() => void load(photos)}>
          {t('upload.mine.more')}
        </button>
      )}
    </section>
  );
}
