import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useRef, useState } from 'react';
import { toDataURL } from 'qrcode';
import { settings } from '../../state/settings';
import { CameraUnavailable, frameNow, openCamera, stopStream, toJpeg, type CameraProblem } from './camera-core';
import { drawFramed, pageLook } from './frames';
import { t } from './t';

/** Shots in a session, seconds of the countdown before each, seconds the QR code stays. */
export const BOOTH_SHOTS = 4;
const COUNTDOWN_S = 3;
const QR_SECONDS = 30;
/** The long side of each shot in the composed picture. */
const SHOT_SIDE = 1000;

type Phase = { step: 'checking' } | { step: 'not-booth' } | { step: 'ready' } | { step: 'shooting'; shot: number; count: number | null } | { step: 'sending' } | { step: 'qr'; qr: string; url: string } | { step: 'failed' };

declare global {
  interface Window {
    __boothTimings?: { composeMs: number[]; bytes: number[] };
  }
}

/** Four shots as one picture: a 2x2 grid (landscape shots) or a strip (portrait ones), in the frame when the couple chose one. */
export function composeShots(shots: HTMLCanvasElement[], frame: string | null, names: string, date: string): HTMLCanvasElement {
  const w = shots[0].width;
  const h = shots[0].height;
  const grid = w >= h;
  const gap = Math.round(Math.min(w, h) * 0.03);
  const c = document.createElement('canvas');
  c.width = grid ? w * 2 + gap : w;
  c.height = grid ? h * 2 + gap : h * shots.length + gap * (shots.length - 1);
  const g = c.getContext('2d')!;
  g.fillStyle = pageLook().surface;
  g.fillRect(0, 0, c.width, c.height);
  shots.forEach((s, i) => g.drawImage(s, grid ? (i % 2) * (w + gap) : 0, grid ? Math.floor(i / 2) * (h + gap) : i * (h + gap), w, h));
  return drawFramed(c, frame ?? 'classic', { names, date }, pageLook());
}

/**
 * /booth on a tablet at the venue: opened once by a signed-in user, then for every guest a big
 * start button, a 3-2-1 countdown before each of four shots, one composed picture uploaded as
 * "Photo booth", and a QR code for 30 s that opens that picture on the guest's phone.
 */
export default function BoothPage() {
  useSignals();
  const [phase, setPhase] = useState<Phase>({ step: 'checking' });
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const s = settings.value;

  useEffect(() => {
    void fetch('/api/booth')
      .then((r) => r.json())
      .then((r: { booth?: boolean }) => setPhase(r.booth ? { step: 'ready' } : { step: 'not-booth' }))
      .catch(() => setPhase({ step: 'not-booth' }));
  }, []);

  // The camera stays open while the page is a booth (the front camera: guests see themselves).
  const booth = phase.step !== 'checking' && phase.step !== 'not-booth';
  useEffect(() => {
    if (!booth) return;
    let live = true;
    openCamera('user', false).then(
      (stream) => {
        if (!live) return stopStream(stream);
        streamRef.current = stream;
        if (videoRef.current) {
          videoRef.current.srcObject = stream;
          void videoRef.current.play().catch(() => undefined);
        }
      },
      (e) => live && setProblem(e instanceof CameraUnavailable ? e.problem : 'failed'),
    );
    return () => {
      live = false;
      stopStream(streamRef.current);
    };
  }, [booth]);

  const openHere = async () => {
    const r = await fetch('/admin/api/booth', { method: 'POST' });
    if (r.ok) setPhase({ step: 'ready' });
    else location.href = '/admin/login';
  };

  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const session = async () => {
    const v = videoRef.current;
    if (!v || !v.videoWidth) return;
    const shots: HTMLCanvasElement[] = [];
    for (let i = 0; i < BOOTH_SHOTS; i++) {
      for (let n = COUNTDOWN_S; n > 0; n--) {
        setPhase({ step: 'shooting', shot: i + 1, count: n });
        await wait(1000);
      }
      setPhase({ step: 'shooting', shot: i + 1, count: null });
      shots.push(frameNow(v, SHOT_SIDE));
      await wait(400);
    }
    setPhase({ step: 'sending' });
    const start = performance.now();
    const names = s ? t('app.couple_names', { first: s.couple_names[0], second: s.couple_names[1] }) : '';
    const date = new Intl.DateTimeFormat(document.documentElement.lang || 'en', { dateStyle: 'long', ...(s?.time_zone ? { timeZone: s.time_zone } : {}) }).format(new Date());
    const picture = await toJpeg(composeShots(shots, s?.frame ?? null, names, date), 0.88);
    const timings = (window.__boothTimings ??= { composeMs: [], bytes: [] });
    timings.composeMs.push(performance.now() - start);
    timings.bytes.push(picture.size);
    const form = new FormData();
    form.append('file', picture, 'photo-booth.jpg');
    try {
      const r = await fetch('/api/booth/upload', { method: 'POST', body: form });
      const body = (await r.json()) as { share_url?: string };
      if (!r.ok || !body.share_url) throw new Error(String(r.status));
      const url = new URL(body.share_url, location.href).href;
      setPhase({ step: 'qr', qr: await toDataURL(url, { margin: 2, width: 480 }), url });
      await wait(QR_SECONDS * 1000);
      setPhase((p) => (p.step === 'qr' ? { step: 'ready' } : p));
    } catch {
      setPhase({ step: 'failed' });
    }
  };

  return (
    <main className="booth-page" data-testid="booth">
      <h1 className="sr-only">{t('camera.booth.title')}</h1>
      {phase.step === 'not-booth' && (
        <div className="booth-center">
          <p>{t('camera.booth.not_opened')}</p>
          <button type="button" className="btn" onClick={() => void openHere()} data-testid="booth-open">
            {t('camera.booth.open')}
          </button>
        </div>
      )}
      {booth && (
        <div className="booth-stage">
          <video ref={videoRef} className="camera-mirrored" muted playsInline autoPlay data-testid="booth-viewfinder" />
          {problem && <p role="alert" className="booth-problem">{t(problem === 'denied' ? 'camera.problem.denied' : problem === 'insecure' ? 'camera.problem.insecure' : problem === 'none' ? 'camera.problem.none' : 'camera.problem.failed')}</p>}
          {(phase.step === 'ready' || phase.step === 'failed') && !problem && (
            <div className="booth-center">
              {phase.step === 'failed' && <p role="alert">{t('camera.booth.failed')}</p>}
              <button type="button" className="booth-start" onClick={() => void session()} data-testid="booth-start">
                {t('camera.booth.start')}
              </button>
            </div>
          )}
          {phase.step === 'shooting' && (
            <div className="booth-overlay" aria-live="assertive">
              <p className="booth-shot">{t('camera.booth.shot', { n: phase.shot, total: BOOTH_SHOTS })}</p>
              {phase.count !== null ? <p className="booth-count" data-testid="booth-count">{phase.count}</p> : <div className="booth-flash" />}
            </div>
          )}
          {phase.step === 'sending' && <p className="booth-overlay" role="status">{t('camera.booth.sending')}</p>}
          {phase.step === 'qr' && (
            <div className="booth-overlay booth-qr" data-testid="booth-qr" data-url={phase.url}>
              <img src={phase.qr} alt="" width={360} height={360} />
              <p>{t('camera.booth.scan')}</p>
            </div>
          )}
        </div>
      )}
    </main>
  );
}
