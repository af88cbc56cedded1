import { useEffect, useState } from 'react';
import type { ShotsResponse } from '../../../common/api-types';
import { t } from './t';

/** Fired on the window when one of this guest's uploads was taken back (client/api/my-uploads.ts). */
const TAKEN_BACK = 'wedding:taken-back';

/**
 * "7 shots left" under the upload box while the couple limits each guest's shots (the
 * disposable-camera game); asked again when `changes` changes and when an upload is taken back.
 */
export function ShotsLeft({ changes }: { changes: number }) {
  const [left, setLeft] = useState<number | null>(null);
  const [takenBack, setTakenBack] = useState(0);
  useEffect(() => {
    const onTakenBack = () => setTakenBack((n) => n + 1);
    addEventListener(TAKEN_BACK, onTakenBack);
    return () => removeEventListener(TAKEN_BACK, onTakenBack);
  }, []);
  useEffect(() => {
    let live = true;
    fetch('/api/my/shots', { credentials: 'same-origin' })
      .then((r) => (r.ok ? (r.json() as Promise<ShotsResponse>) : null))
      .then((r) => live && r && setLeft(r.shots_left))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [changes, takenBack]);
  if (left === null) return null;
  return (
    <p className={`shots-left${left === 0 ? ' shots-left-none' : ''}`} role="status" data-testid="shots-left">
      {left === 0 ? t('camera.shots_none') : t('camera.shots_left', { count: left })}
    </p>
  );
}
