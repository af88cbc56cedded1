import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
  CameraUnavailable,
  captureName,
  fullPhoto,
  frameNow,
  screenSide,
  timeShot,
  type Shot,
  hasSeveralCameras,
  localIsoNow,
  MAX_VIDEO_SECONDS,
  openCamera,
  recordingType,
  stopStream,
  toJpeg,
  type CameraProblem,
  type Facing,
} from './camera-core';
import { drawFramed, pageLook, type FrameText } from './frames';
import { t } from './t';

/** The sentence for each reason the camera cannot open. */
const PROBLEM_TEXT: Record<CameraProblem, string> = {
  insecure: 'camera.problem.insecure',
  denied: 'camera.problem.denied',
  none: 'camera.problem.none',
  failed: 'camera.problem.failed',
};

type Taken = { kind: 'photo'; canvas: HTMLCanvasElement; full: Promise<CanvasImageSource & { width: number; height: number }>; capturedAt: string; at: Date } | { kind: 'video'; url: string; blob: Blob; capturedAt: string; ext: string };

/**
 * The camera in the page: the viewfinder (rear camera first, a switch to the front, mirrored
 * only on screen), a shutter that shows the picture at once, a retake before sending, a video of
 * at most 60 s with its countdown. What is sent joins the upload queue with its capture time.
 * Where the camera cannot open, one sentence says why and the phone's own camera is offered.
 */
export interface CameraSheetProps {
  mode: 'photo' | 'video';
  onClose: () => void;
  /** Puts what was taken in the upload queue; false while uploads are off (the page says so). */
  add: (file: File, capturedAt: string) => boolean;
  /** The couple's frame (settings `frame`), the names and the wedding's time zone it carries. */
  frame: string | null;
  names: readonly [string, string] | null;
  timeZone: string | null;
}

export function CameraSheet({ mode, onClose, add, frame, names, timeZone }: CameraSheetProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const recorderRef = useRef<MediaRecorder | null>(null);
  const shutterRef = useRef<HTMLButtonElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  /** The press not yet shown: when it came, and whether its full-size photo has begun. */
  const shot = useRef<Shot | null>(null);
  const previewRef = useRef<HTMLDivElement>(null);
  const [facing, setFacing] = useState<Facing>('environment');
  const [problem, setProblem] = useState<CameraProblem | null>(null);
  const [ready, setReady] = useState(false);
  const [several, setSeveral] = useState(false);
  const [taken, setTaken] = useState<Taken | null>(null);
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const [sent, setSent] = useState(0);
  const [withFrame, setWithFrame] = useState(false);

  // The camera opens with the sheet and again after a switch; it closes with the sheet.
  useEffect(() => {
    let live = true;
    setReady(false);
    openCamera(facing, mode === 'video').then(
      (stream) => {
        if (!live) return stopStream(stream);
        streamRef.current = stream;
        const v = videoRef.current;
        if (v) {
          v.srcObject = stream;
          void v.play().catch(() => undefined);
        }
        void hasSeveralCameras().then((s) => live && setSeveral(s));
      },
      (e) => live && setProblem(e instanceof CameraUnavailable ? e.problem : 'failed'),
    );
    return () => {
      live = false;
      stopStream(streamRef.current);
      streamRef.current = null;
    };
  }, [facing, mode]);

  // Once the camera shows, the shutter has the focus: Enter or Space takes the photo.
  useEffect(() => {
    if (ready) shutterRef.current?.focus();
  }, [ready]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  useEffect(
    () => () => {
      if (taken?.kind === 'video') URL.revokeObjectURL(taken.url);
    },
    [taken],
  );

  const shoot = () => {
    const v = videoRef.current;
    if (!v || !v.videoWidth) return;
    const start = performance.now();
    const capturedAt = localIsoNow();
    // The frame on screen now is the picture shown at once; the sensor's full photo follows.
    // At once: the frame on screen now, at the screen's size. The photo itself (the video's frame
    // at its full size, or the sensor's through ImageCapture) is taken right after, off the shutter's path.
    const shown = frameNow(v, screenSide());
    const size = { width: v.videoWidth, height: v.videoHeight };
    const track = streamRef.current?.getVideoTracks()[0];
    const press: Shot = { start, fullStarted: false };
    const full = new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r))).then(() => {
      press.fullStarted = true;
      return fullPhoto(track, () => (shown.width === size.width ? shown : frameNow(v)), size);
    });
    shot.current = press;
    setTaken({ kind: 'photo', canvas: shown, full, capturedAt, at: new Date() });
  };

  // The picture (the frame drawn at the shutter) goes on screen as it is, without encoding it.
  useLayoutEffect(() => {
    const box = previewRef.current;
    if (!box || taken?.kind !== 'photo') return;
    const shown = withFrame && frame ? drawFramed(taken.canvas, frame, frameText(taken.at), pageLook()) : taken.canvas;
    shown.className = 'camera-still';
    shown.setAttribute('role', 'img');
    shown.setAttribute('aria-label', t('camera.preview_photo'));
    shown.dataset.testid = 'camera-preview';
    if (withFrame && frame) shown.dataset.frame = frame;
    box.replaceChildren(shown);
    if (shot.current) timeShot(shot.current);
    shot.current = null;
    return () => box.replaceChildren();
  }, [taken, withFrame]);

  const record = () => {
    const stream = streamRef.current;
    if (!stream) return;
    if (recorderRef.current) {
      recorderRef.current.stop();
      return;
    }
    const type = recordingType();
    const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const parts: Blob[] = [];
    const capturedAt = localIsoNow();
    const started = Date.now();
    setSecondsLeft(MAX_VIDEO_SECONDS);
    const tick = setInterval(() => {
      const left = Math.max(0, MAX_VIDEO_SECONDS - Math.floor((Date.now() - started) / 1000));
      setSecondsLeft(left);
      if (left === 0 && recorder.state === 'recording') recorder.stop();
    }, 250);
    recorder.ondataavailable = (e) => e.data.size && parts.push(e.data);
    recorder.onstop = () => {
      clearInterval(tick);
      recorderRef.current = null;
      setSecondsLeft(null);
      const mime = (recorder.mimeType || type || 'video/webm').split(';')[0];
      const blob = new Blob(parts, { type: mime });
      setTaken({ kind: 'video', url: URL.createObjectURL(blob), blob, capturedAt, ext: mime.includes('mp4') ? 'mp4' : 'webm' });
    };
    recorder.start(1000);
    recorderRef.current = recorder;
  };

  // What a frame carries: the names as the page writes them, the day in the wedding's time zone.
  const frameText = (at: Date): FrameText => ({
    names: names ? t('app.couple_names', { first: names[0], second: names[1] }) : '',
    date: new Intl.DateTimeFormat(document.documentElement.lang || 'en', { dateStyle: 'long', ...(timeZone ? { timeZone } : {}) }).format(at),
  });

  const retake = () => {
    setTaken(null);
    setTimeout(() => shutterRef.current?.focus());
  };

  const send = async () => {
    if (!taken) return;
    const current = taken;
    setTaken(null);
    setSent((n) => n + 1);
    setTimeout(() => shutterRef.current?.focus());
    const at = new Date();
    const framed = withFrame && frame;
    const file =
      current.kind === 'photo'
        ? new File([await current.full.then((img) => toJpeg(framed ? drawFramed(img, frame, frameText(current.at), pageLook()) : img))], captureName('photo', 'jpg', at), { type: 'image/jpeg', lastModified: at.getTime() })
        : new File([current.blob], captureName('video', current.ext, at), { type: current.blob.type, lastModified: at.getTime() });
    add(file, current.capturedAt);
  };

  const fromPhoneCamera = (files: FileList | null) => {
    if (!files?.length) return;
    for (const f of Array.from(files)) if (!add(f, localIsoNow(new Date(f.lastModified || Date.now())))) return;
    onClose();
  };

  const close = useCallback(() => {
    recorderRef.current?.stop();
    onClose();
  }, [onClose]);

  const title = mode === 'photo' ? t('live.camera.take_photo') : t('live.camera.record_video');
  const recording = secondsLeft !== null;
  const clock = secondsLeft === null ? '' : `${Math.floor(secondsLeft / 60)}:${String(secondsLeft % 60).padStart(2, '0')}`;

  return (
    <div className="camera-sheet" role="dialog" aria-modal="true" aria-label={title} data-testid="camera-sheet">
      <div className="camera-top">
        <h2 className="camera-title">{title}</h2>
        <button type="button" className="btn btn-ghost camera-close" onClick={close} aria-label={t('camera.close')}>
          <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
      </div>

      {problem ? (
        <div className="camera-problem" data-testid="camera-problem">
          <p role="alert">{t(PROBLEM_TEXT[problem])}</p>
          <input
            ref={fileRef}
            type="file"
            hidden
            accept={mode === 'photo' ? 'image/*' : 'video/*'}
            capture="environment"
            onChange={(e) => fromPhoneCamera(e.currentTarget.files)}
            data-testid="camera-file-input"
          />
          <button type="button" className="btn" onClick={() => fileRef.current?.click()}>
            {mode === 'photo' ? t('camera.phone_camera_photo') : t('camera.phone_camera_video')}
          </button>
        </div>
      ) : (
        <>
          <div className="camera-view">
            <video
              ref={videoRef}
              className={facing === 'user' ? 'camera-mirrored' : undefined}
              muted
              playsInline
              autoPlay
              hidden={!!taken}
              onLoadedMetadata={() => setReady(true)}
              data-testid="camera-viewfinder"
            />
            {taken?.kind === 'photo' && <div ref={previewRef} className="camera-still-box" />}
            {taken?.kind === 'video' && <video src={taken.url} controls playsInline aria-label={t('camera.preview_video')} data-testid="camera-preview" />}
            {recording && (
              <p className="camera-countdown" role="timer" aria-live="off" data-testid="camera-countdown">
                <span className="camera-rec-dot" aria-hidden="true" /> {t('camera.time_left', { time: clock })}
              </p>
            )}
          </div>
          <p className="camera-status" role="status">
            {!ready && !taken ? t('camera.opening') : sent > 0 && !taken ? t('camera.sent') : ''}
          </p>
          {taken?.kind === 'photo' && frame && (
            <div className="camera-frame-choice">
              <label>
                <input type="checkbox" checked={withFrame} onChange={(e) => setWithFrame(e.currentTarget.checked)} data-testid="camera-with-frame" /> {t('camera.with_frame')}
              </label>
            </div>
          )}
          {taken ? (
            <div className="camera-controls">
              <button type="button" className="btn btn-outline" onClick={retake} data-testid="camera-retake">
                {t('camera.retake')}
              </button>
              <button type="button" className="btn" onClick={() => void send()} data-testid="camera-send">
                {taken.kind === 'photo' ? t('camera.send_photo') : t('camera.send_video')}
              </button>
            </div>
          ) : (
            <div className="camera-controls">
              <span className="camera-spacer" />
              {mode === 'photo' ? (
                <button ref={shutterRef} type="button" className="camera-shutter" onClick={shoot} disabled={!ready} aria-label={t('camera.shutter')} data-testid="camera-shutter" />
              ) : (
                <button
                  ref={shutterRef}
                  type="button"
                  className={`camera-shutter camera-record${recording ? ' camera-recording' : ''}`}
                  onClick={record}
                  disabled={!ready}
                  aria-label={recording ? t('camera.record_stop') : t('camera.record_start')}
                  data-testid="camera-record"
                />
              )}
              {several && !recording ? (
                <button type="button" className="btn btn-ghost camera-switch" onClick={() => setFacing((f) => (f === 'environment' ? 'user' : 'environment'))} aria-label={t('camera.switch')} data-testid="camera-switch">
                  <svg aria-hidden="true" width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
                    <path d="M3 12a9 9 0 0 1 15-6.7L21 8M21 3v5h-5M21 12a9 9 0 0 1-15 6.7L3 16M3 21v-5h5" />
                  </svg>
                </button>
              ) : (
                <span className="camera-spacer" />
              )}
            </div>
          )}
        </>
      )}
    </div>
  );
}
