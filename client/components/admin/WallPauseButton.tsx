import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import { adminApi, errorText } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { loadSettings, settings, settingsSaved } from '../../state/settings';
import { toast } from '../ui/toast';
import { t } from './t';

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
      toast({ title: paused ? t('admin.wall.resumed') : t('admin.wall.paused'), variant: 'success' });
    } catch (err) {
      if (!handleUnauthorized(err)) toast({ title: t('app.error'), description: errorText(err, t('admin.wall.change_failed')), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="btn btn-outline" aria-pressed={paused} disabled={busy} onClick={() => void flip()}>
      {paused ? <Play size={18} aria-hidden="true" /> : <Pause size={18} aria-hidden="true" />}
      {paused ? t('admin.wall.resume') : t('admin.wall.pause')}
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
    <section className="card day-controls" aria-label={t('admin.day.title')}>
      <p data-testid="moderation-mode">
        <strong>{s.moderation === 'auto' ? t('admin.wall.approval_auto') : t('admin.wall.approval_manual')}</strong>{' '}
        {s.moderation === 'auto' ? t('admin.wall.approval_auto_text') : t('admin.wall.approval_manual_text')}
      </p>
      {s.wall_paused && <p className="muted">{t('admin.wall.is_paused')}</p>}
      {canEdit && <WallPauseButton refresh={false} />}
    </section>
  );
}
