import { useRef, useState } from 'react';
import { t } from './t';

interface Props {
  /** When everything is deleted anyway, written out in the page's language. */
  until: string | null;
  /** The camera can be opened on this page (it needs HTTPS or localhost). */
  canFilm: boolean;
  error: string | null;
  onCamera(): void;
  onFile(file: File): void;
  onBrowse(): void;
}

/** What happens to the guest's face, an unticked box, then the camera or a photo: nothing opens before the box is ticked. */
export function Consent({ until, canFilm, error, onCamera, onFile, onBrowse }: Props) {
  const [agreed, setAgreed] = useState(false);
  const capture = useRef<HTMLInputElement>(null);
  const library = useRef<HTMLInputElement>(null);
  const picked = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = ''; // the same file may be picked again after an error
    if (file) onFile(file);
  };
  return (
    <div className="face-consent">
      <p>{t('faces.consent.intro')}</p>
      <ul className="face-facts">
        <li>{t('faces.consent.once')}</li>
        <li>{until ? t('faces.consent.kept_until', { date: until }) : t('faces.consent.kept')}</li>
        <li>{t('faces.consent.others')}</li>
      </ul>
      <label className="face-agree">
        <input type="checkbox" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <span>{t('faces.consent.agree')}</span>
      </label>
      {error && (
        <div className="alert alert-destructive" role="alert">
          {error}
        </div>
      )}
      <p className="muted">{t('faces.consent.hint')}</p>
      <div className="face-actions">
        <button type="button" className="btn" disabled={!agreed} onClick={() => (canFilm ? onCamera() : capture.current?.click())}>
          {t('faces.take_selfie')}
        </button>
        <button type="button" className="btn btn-outline" disabled={!agreed} onClick={() => library.current?.click()}>
          {t('faces.choose_photo')}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onBrowse}>
          {t('faces.browse_instead')}
        </button>
      </div>
      {/* Without a camera in the page (plain HTTP on the LAN), the phone's own camera app takes the selfie. */}
      <input ref={capture} type="file" accept="image/*" capture="user" hidden onChange={(e) => picked(e.currentTarget)} />
      <input ref={library} type="file" accept="image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif" hidden data-testid="face-file" onChange={(e) => picked(e.currentTarget)} />
    </div>
  );
}
