import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import { adminApi, errorText } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { loadSettings, settings, settingsSaved } from '../../state/settings';
import { toast } from '../ui/toast';

/** Pauses the reception wall (only its QR code shows) and resumes it; open walls follow at once. */
export function WallPauseButton({ refresh = true }: { refresh?: boolean }) {
  useSignals();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (refresh) void loadSettings(true); // someone else may have paused it since this page loaded
  }, [refresh]);
  const s = settings.value;
  if (!s) return null;
  const paused = s.wall_paused;
  const flip = async () => {
    setBusy(true);
    try {
      settingsSaved((await adminApi.patchSettings({ wall_paused: !paused })).settings);
      toast({ title: paused ? 'The wall is showing photos again' : 'The wall is paused', variant: 'success' });
    } catch (err) {
      if (!handleUnauthorized(err)) toast({ title: 'Error', description: errorText(err, 'Could not change the wall'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-outline" aria-pressed={paused} disabled={busy} onClick={() => void flip()}>
      {paused ? <Play size={18} aria-hidden="true" /> : <Pause size={18} aria-hidden="true" />}
      {paused ? 'Resume the wall' : 'Pause the wall'}
    </button>
  );
}

/** The dashboard's line on how new uploads are approved, and the wall's pause. */
export function DayStatus({ canEdit }: { canEdit: boolean }) {
  useSignals();
  useEffect(() => {
    void loadSettings(true);
  }, []);
  const s = settings.value;
  if (!s) return null;
  return (
    <section className="card day-controls" aria-label="On the day">
      <p data-testid="moderation-mode">
        <strong>Approval: {s.moderation === 'auto' ? 'automatic' : 'manual'}.</strong>{' '}
        {s.moderation === 'auto' ? 'New photos and videos appear by themselves once processed.' : 'New photos and videos wait for approval.'}
      </p>
      {s.wall_paused && <p className="muted">The reception wall is paused.</p>}
      {canEdit && <WallPauseButton refresh={false} />}
    </section>
  );
}
