import '../../shared-chunk';
import Mic from 'lucide-react/icons/mic';
import Square from 'lucide-react/icons/square';
import { useEffect, useRef, useState } from 'react';
import { VOICE_NOTE_MAX_SECONDS } from '../../../common/rules';
import { t } from './t';

/** What the browser records in, by preference: every one of these is taken by the server. */
const TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/webm'];

type Problem = 'unavailable' | 'refused' | 'no_microphone' | 'failed';

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

/** Why recording cannot start, in words a guest can act on. */
function problemOf(e: unknown): Problem {
  const name = (e as { name?: string })?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'refused';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'no_microphone';
  return 'failed';
}

/**
 * Records a voice note with the microphone (MediaRecorder): at most VOICE_NOTE_MAX_SECONDS with
 * a countdown, stopped by the guest or at the end of the time. A separate chunk: only guests who
 * press "Record" load it.
 */
export default function VoiceRecorder({ onRecorded }: { onRecorded(blob: Blob, ext: string): void }) {
  const [recording, setRecording] = useState(false);
  const [left, setLeft] = useState(VOICE_NOTE_MAX_SECONDS);
  const [problem, setProblem] = useState<Problem | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timer = useRef<number | undefined>(undefined);

  // Loaded because the guest asked to record: start at once. Leaving mid-recording lets the microphone go.
  useEffect(() => {
    void start();
    return stop;
  }, []);

  function stop() {
    window.clearInterval(timer.current);
    if (recorder.current?.state === 'recording') recorder.current.stop();
  }

  async function start() {
    setProblem(null);
    // No mediaDevices at all: an old browser, or a phone on plain http (browsers allow the microphone on https only).
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') return setProblem('unavailable');
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (e) {
      return setProblem(problemOf(e));
    }
    const mimeType = TYPES.find((m) => MediaRecorder.isTypeSupported(m));
    const rec = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const parts: Blob[] = [];
    rec.ondataavailable = (e) => e.data.size && parts.push(e.data);
    rec.onstop = () => {
      stream.getTracks().forEach((tr) => tr.stop());
      setRecording(false);
      const type = rec.mimeType || mimeType || 'audio/webm';
      if (parts.length) onRecorded(new Blob(parts, { type }), type.includes('mp4') ? 'm4a' : type.includes('ogg') ? 'ogg' : 'webm');
    };
    recorder.current = rec;
    rec.start(1000);
    const began = Date.now();
    setLeft(VOICE_NOTE_MAX_SECONDS);
    setRecording(true);
    timer.current = window.setInterval(() => {
      const remaining = VOICE_NOTE_MAX_SECONDS - (Date.now() - began) / 1000;
      setLeft(Math.max(0, Math.ceil(remaining)));
      if (remaining <= 0) stop();
    }, 250);
  }

  return (
    <div className="voice-recorder">
      {recording ? (
        <>
          <button type="button" className="btn btn-danger" onClick={stop}>
            <Square aria-hidden="true" size={16} /> {t('guestbook.voice.stop')}
          </button>
          <p className="voice-countdown" role="timer" aria-live="off" data-testid="voice-countdown">
            <span className="voice-dot" aria-hidden="true" /> {t('guestbook.voice.left', { time: clock(left) })}
          </p>
        </>
      ) : (
        <button type="button" className="btn btn-outline" onClick={() => void start()}>
          <Mic aria-hidden="true" size={16} /> {t('guestbook.voice.record')}
        </button>
      )}
      {problem && (
        <p className="field-error" role="alert" data-testid="voice-problem">
          {problem === 'unavailable'
            ? t('guestbook.voice.unavailable')
            : problem === 'refused'
              ? t('guestbook.voice.refused')
              : problem === 'no_microphone'
                ? t('guestbook.voice.no_microphone')
                : t('guestbook.voice.failed')}
        </p>
      )}
    </div>
  );
}
