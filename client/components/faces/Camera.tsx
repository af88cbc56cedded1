import { useEffect, useRef, useState } from 'react';
import { t } from './t';

interface Props {
  onShot(photo: Blob): void;
  onCancel(): void;
  /** The camera could not be opened (refused, none, or a page not served over HTTPS). */
  onUnavailable(): void;
}

/** The front camera's live picture and a button that takes the selfie (the stream stops with it). */
export function Camera({ onShot, onCancel, onUnavailable }: Props) {
  const video = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const fail = useRef(onUnavailable);
  fail.current = onUnavailable;

  useEffect(() => {
    let stream: MediaStream | undefined;
    let gone = false;
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 1280 } }, audio: false })
      .then(async (s) => {
        stream = s;
        if (gone || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        setReady(true);
      })
      .catch(() => {
        if (!gone) fail.current();
      });
    return () => {
      gone = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, []);

  const shoot = () => {
    const v = video.current;
    if (!v || !v.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = v.videoWidth;
    canvas.height = v.videoHeight;
    canvas.getContext('2d')?.drawImage(v, 0, 0);
    canvas.toBlob((b) => b && onShot(b), 'image/jpeg', 0.92);
  };

  return (
    <div className="face-camera">
      {/* Mirrored like a mirror, as people expect of a front camera; the photo sent is not. */}
      <video ref={video} muted playsInline aria-label={t('faces.camera.preview')} />
      <div className="face-actions">
        <button type="button" className="btn" onClick={shoot} disabled={!ready} autoFocus>
          {t('faces.camera.shoot')}
        </button>
        <button type="button" className="btn btn-outline" onClick={onCancel}>
          {t('faces.camera.cancel')}
        </button>
      </div>
    </div>
  );
}
