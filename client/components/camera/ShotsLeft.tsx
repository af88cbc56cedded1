import { useSignals } from '@preact/signals-react/runtime';
import { useEffect } from 'react';
import { t } from '../../i18n';
import { refreshShots, shotsLeft, shotsVersion } from '../../state/shots';
import { finishedCount, uploadItems } from '../../state/uploads';

/** "7 shots left" under the upload box while the couple limits each guest's shots; nothing otherwise. */
export function ShotsLeft() {
  useSignals();
  const finished = finishedCount.value;
  const failed = uploadItems.value.filter((i) => i.status === 'error').length;
  const version = shotsVersion.value;
  useEffect(() => void refreshShots(), [finished, failed, version]);
  const left = shotsLeft.value;
  if (left === null) return null;
  return (
    <p className={`shots-left${left === 0 ? ' shots-left-none' : ''}`} role="status" data-testid="shots-left">
      {left === 0 ? t('live.shots_none') : t('live.shots_left', { count: left })}
    </p>
  );
}
