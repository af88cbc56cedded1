import { useSignals } from '@preact/signals-react/runtime';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Trash2 from 'lucide-react/icons/trash-2';
import type { FaceSearchStatus } from '../../../common/api-types';
import { adminApi, errorText } from '../../api/admin';
import { formatInZone } from '../../i18n/format';
import { handleUnauthorized } from '../../state/admin';
import { settings, settingsSaved } from '../../state/settings';
import { toast } from '../ui/toast';
import { splitInZone } from '../zoned-time';
import { Card } from './Card';
import { CheckboxRow, Field } from './Field';
import { t } from './t';

/** How often the card reads the scan's backlog again. */
const STATUS_MS = 10_000;

/** The dashboard's "Find photos of me" card: on/off with its end date, who uses it, the scan, and deleting everything. */
export function FaceSearchCard({ canEdit, isAdmin }: { canEdit: boolean; isAdmin: boolean }) {
  useSignals();
  const [status, setStatus] = useState<FaceSearchStatus | null>(null);
  const [form, setForm] = useState<{ on: boolean; until: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const zone = settings.value?.time_zone ?? 'UTC';

  const load = useCallback(async () => {
    try {
      setStatus((await adminApi.faces()).faces);
    } catch (err) {
      if (!handleUnauthorized(err)) console.error('Could not read the face search status', err);
    }
  }, []);
  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), STATUS_MS);
    return () => clearInterval(timer);
  }, [load]);

  const s = settings.value;
  useEffect(() => {
    if (s) setForm({ on: s.face_search, until: s.face_search ? splitInZone(s.face_search_until, s.time_zone).date : '' });
  }, [s?.face_search, s?.face_search_until, s?.time_zone]);

  const failed = (err: unknown) => {
    if (!handleUnauthorized(err)) toast({ title: t('app.error'), description: errorText(err, t('admin.faces.failed')), variant: 'destructive' });
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!form) return;
    setBusy(true);
    try {
      settingsSaved((await adminApi.patchSettings({ face_search: form.on, face_search_until: form.on && form.until ? form.until : null })).settings);
      toast({ title: t('admin.faces.saved'), variant: 'success' });
      await load();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const deleteAll = async () => {
    if (!window.confirm(t('admin.faces.delete_confirm'))) return;
    setBusy(true);
    try {
      setStatus((await adminApi.deleteFaces()).faces);
      toast({ title: t('admin.faces.deleted'), variant: 'success' });
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="face-card" titleId="face-card-title" title={t('admin.faces.title')} data-testid="face-card">
      <p className="muted">{t('admin.faces.intro')}</p>
      {status && (
        <ul className="face-card-facts" data-testid="face-status">
          <li>
            <strong>{status.enabled && status.until ? t('admin.faces.on_until', { date: formatInZone(status.until, zone) }) : t('admin.faces.off')}</strong>
          </li>
          {status.enabled && <li>{t('admin.faces.guests', { count: status.guests })}</li>}
          {status.enabled && <li>{t('admin.faces.matches', { count: status.matches })}</li>}
          {status.enabled && <li>{status.photos_to_scan > 0 ? t('admin.faces.scanning', { count: status.photos_to_scan }) : t('admin.faces.idle')}</li>}
        </ul>
      )}
      {canEdit && form && (
        <form className="face-card-form" onSubmit={(e) => void save(e)}>
          <CheckboxRow role="switch" label={t('admin.faces.enabled')} checked={form.on} onChange={(e) => setForm({ ...form, on: e.target.checked })} />
          <Field id="face-until" label={t('admin.faces.until')} hint={t('admin.faces.until_hint')} hintId="face-until-hint">
            <input id="face-until" type="date" value={form.until} disabled={!form.on} aria-describedby="face-until-hint" onChange={(e) => setForm({ ...form, until: e.target.value })} />
          </Field>
          <button type="submit" className="btn" disabled={busy}>
            {t('admin.faces.save')}
          </button>
        </form>
      )}
      {isAdmin && (
        <button type="button" className="btn btn-danger face-card-delete" disabled={busy} onClick={() => void deleteAll()}>
          <Trash2 size={18} aria-hidden="true" />
          {t('admin.faces.delete_all')}
        </button>
      )}
    </Card>
  );
}
