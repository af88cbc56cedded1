import { useSignals } from '@preact/signals-react/runtime';
import { lazy, Suspense, useState } from 'react';
import { t, withTexts } from '../../i18n';
import { settings } from '../../state/settings';
import { finishedCount, uploadEngine, uploadItems } from '../../state/uploads';
import { MSG } from '../../uploads/messages';
import { toast } from '../ui/toast';

// The camera, its texts and the frames load only when a guest opens it; the shots left only while
// the couple limits them. Both get what they need of the page as props, so their chunks share no
// code with the guest pages but React and the texts.
const CameraSheet = lazy(() => withTexts(import('./CameraSheet')).then((m) => ({ default: m.CameraSheet })));
const ShotsLeft = lazy(() => withTexts(import('./ShotsLeft')).then((m) => ({ default: m.ShotsLeft })));

/** A photo or video taken in the page joins the upload queue; false (and a notice) while uploads are off. */
function addCaptured(file: File, capturedAt: string): boolean {
  if (settings.value?.uploads_enabled === false) {
    toast({ title: t(MSG.uploadsOffTitle), description: t(MSG.uploadsOff), variant: 'destructive' });
    return false;
  }
  uploadEngine.addCaptured(file, capturedAt);
  return true;
}

/** "Take a photo" and "Record a video" on /live (the phone's camera in the page); with `shots`, the shots left. */
export function CameraEntry({ shots }: { shots?: boolean }) {
  useSignals();
  const [open, setOpen] = useState<'photo' | 'video' | null>(null);
  const s = settings.value;
  if (shots) {
    if (!s?.shot_limit) return null;
    // Asked again whenever one of this guest's files is done or failed.
    const changes = finishedCount.value * 1000 + uploadItems.value.filter((i) => i.status === 'error').length;
    return (
      <Suspense fallback={null}>
        <ShotsLeft changes={changes} />
      </Suspense>
    );
  }
  return (
    <div className="camera-entry">
      <button type="button" className="btn" onClick={() => setOpen('photo')} data-testid="camera-photo">
        {t('live.camera.take_photo')}
      </button>
      <button type="button" className="btn btn-outline" onClick={() => setOpen('video')} data-testid="camera-video">
        {t('live.camera.record_video')}
      </button>
      {open && (
        <Suspense fallback={<div className="camera-sheet" aria-busy="true" />}>
          <CameraSheet mode={open} onClose={() => setOpen(null)} add={addCaptured} frame={s?.frame ?? null} names={s?.couple_names ?? null} timeZone={s?.time_zone ?? null} />
        </Suspense>
      )}
    </div>
  );
}
