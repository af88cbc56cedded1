import '../../shared-chunk';
import { useEffect, useRef, useState } from 'react';
import type { FaceSearchResponse, GalleryItem } from '../../../common/api-types';
import { ApiError } from '../../api/http';
import { Camera } from './Camera';
import { Consent } from './Consent';
import { fetchMyFaces, forgetMyFace, notSearchedYet, problemText, sendSelfie } from './faces-api';
import { t } from './t';

/** How often the matches are asked for again while the scan goes through the gallery. */
const POLL_MS = 2000;

type Step =
  | { name: 'checking' }
  | { name: 'consent'; error: string | null; note?: string }
  | { name: 'camera' }
  | { name: 'reading' }
  | { name: 'results'; data: FaceSearchResponse }
  | { name: 'off'; message: string };

interface Props {
  /** When every face code is deleted anyway (the setting face_search_until), written out. */
  until: string | null;
  /** The photos to show as the gallery's filter, best first; null shows the whole gallery. */
  onMatches(items: GalleryItem[] | null): void;
  onClose(): void;
}

/** "Find photos of me": consent, a selfie, the scan's progress and the photos the guest is in. */
export default function FacePanel({ until, onMatches, onClose }: Props) {
  const [step, setStep] = useState<Step>({ name: 'checking' });
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const matches = useRef(onMatches);
  matches.current = onMatches;
  const canFilm = typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia;

  const failed = (err: unknown, fallback: string): Step =>
    err instanceof ApiError && err.code === 'face_search_off' ? { name: 'off', message: err.message } : { name: 'consent', error: problemText(err, fallback) };

  useEffect(() => {
    heading.current?.focus();
    fetchMyFaces()
      .then((data) => setStep({ name: 'results', data }))
      .catch((err) => setStep(notSearchedYet(err) ? { name: 'consent', error: null } : failed(err, t('faces.error.network'))));
  }, []);

  // Matches arrive while the scan runs: the gallery shows them as they come.
  const data = step.name === 'results' ? step.data : null;
  useEffect(() => {
    matches.current(data ? data.matches : null);
    if (!data?.searching) return;
    const timer = setTimeout(() => {
      fetchMyFaces()
        .then((next) => setStep((s) => (s.name === 'results' ? { name: 'results', data: next } : s)))
        // A dropped connection tries again (a new object re-runs this effect); the server's refusal
        // (turned off, data deleted by the couple) is shown.
        .catch((err) => setStep((s) => (err instanceof ApiError || s.name !== 'results' ? failed(err, t('faces.error.network')) : { name: 'results', data: { ...s.data } })));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [data]);

  const send = async (photo: Blob, name: string) => {
    setStep({ name: 'reading' });
    try {
      setStep({ name: 'results', data: await sendSelfie(photo, name) });
    } catch (err) {
      setStep(failed(err, t('faces.error.send')));
    }
  };

  const forget = async () => {
    setBusy(true);
    try {
      await forgetMyFace();
      setStep({ name: 'consent', error: null, note: t('faces.forgotten') });
    } catch (err) {
      setStep(failed(err, t('faces.error.network')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card face-panel" aria-labelledby="face-title" data-testid="face-panel">
      <div className="face-head">
        <h2 id="face-title" ref={heading} tabIndex={-1}>
          {t('gallery.find_me')}
        </h2>
        <button type="button" className="btn btn-ghost btn-icon" aria-label={t('faces.close')} onClick={onClose}>
          {/* lucide's "x", drawn here so this chunk shares no icon code with the guest pages' own chunks */}
          <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
      </div>

      {step.name === 'checking' && <div className="skeleton face-skeleton" aria-busy="true" />}

      {step.name === 'off' && (
        <p role="alert" className="face-off">
          {step.message}
        </p>
      )}

      {step.name === 'consent' && (
        <>
          {step.note && (
            <p role="status" className="face-note">
              {step.note}
            </p>
          )}
          <Consent
            until={until}
            canFilm={canFilm}
            error={step.error}
            onCamera={() => setStep({ name: 'camera' })}
            onFile={(file) => void send(file, file.name)}
            onBrowse={onClose}
          />
        </>
      )}

      {step.name === 'camera' && (
        <Camera
          onShot={(photo) => void send(photo, 'selfie.jpg')}
          onCancel={() => setStep({ name: 'consent', error: null })}
          onUnavailable={() => setStep({ name: 'consent', error: t('faces.camera.unavailable') })}
        />
      )}

      {step.name === 'reading' && (
        <p role="status" className="face-reading">
          {t('faces.reading')}
        </p>
      )}

      {step.name === 'results' && <Results data={step.data} busy={busy} onAgain={() => setStep({ name: 'consent', error: null })} onForget={() => void forget()} onShowAll={onClose} />}
    </section>
  );
}

function Results({ data, busy, onAgain, onForget, onShowAll }: { data: FaceSearchResponse; busy: boolean; onAgain(): void; onForget(): void; onShowAll(): void }) {
  const percent = data.total ? Math.round((100 * data.scanned) / data.total) : 100;
  return (
    <div className="face-results">
      <div role="status" data-testid="face-status">
        <p className="face-count">{t('faces.results.count', { count: data.matches.length })}</p>
        {data.searching ? (
          <>
            <p className="muted">{t('faces.results.searching', { scanned: data.scanned, total: data.total })}</p>
            <div className="progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={t('faces.results.progress')}>
              <div className="progress-bar" style={{ width: `${percent}%` }} />
            </div>
          </>
        ) : (
          <p className="muted">{t('faces.results.done')}</p>
        )}
      </div>
      <div className="face-actions">
        <button type="button" className="btn btn-outline" onClick={onShowAll}>
          {t('faces.results.show_all')}
        </button>
        <button type="button" className="btn btn-outline" onClick={onAgain}>
          {t('faces.results.again')}
        </button>
        <button type="button" className="btn btn-danger" onClick={onForget} disabled={busy}>
          {t('faces.forget')}
        </button>
      </div>
      <p className="muted">{t('faces.forget_hint')}</p>
    </div>
  );
}
