import { useCallback, useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import type { AdminSettingsResponse, FrameInfo, ScheduleItem, ThemeInfo, WallSource, WeddingSettings } from '../../../common/api-types';
import { adminApi, errorText, isForbidden } from '../../api/admin';
import { handleUnauthorized, me, permissionsOf } from '../../state/admin';
import { settingsSaved } from '../../state/settings';
import { toast } from '../../components/ui/toast';
import { ErrorCard, ForbiddenCard } from '../../components/admin/AdminShell';
import { Card } from '../../components/admin/Card';
import { ChallengesEditor } from '../../components/admin/ChallengesEditor';
import { DayControls } from '../../components/admin/DayControls';
import { CheckboxRow, ErrorAlert, Field, InputField } from '../../components/admin/Field';
import { LookSettings } from '../../components/admin/LookSettings';
import { CameraSettings } from '../../components/admin/CameraSettings';
import { MomentTimes } from '../../components/admin/MomentTimes';
import { OffsiteCard } from '../../components/admin/OffsiteCard';
import { TranslationsEditor } from '../../components/admin/TranslationsEditor';
import { NotifySettingsSection, TwoStepSetting } from '../../components/admin/security/AccountSettings';
import { LONG_TEXTS, SCHEDULE_FIELDS } from '../../components/admin/schedule-fields';
import { t } from '../../components/admin/t';

const blankItem = (): ScheduleItem => ({ title: '', day: '', time: '', venue: '', location: '', attire: '', attendance: '', description: '' });

/** /admin/settings: the wedding content of the guest pages and the uploads switch (admins only). */
export function SettingsPage() {
  const [form, setForm] = useState<WeddingSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [themes, setThemes] = useState<ThemeInfo[]>([]);
  const [frames, setFrames] = useState<FrameInfo[]>([]);
  const [cover, setCover] = useState<string | null>(null);
  /** What the server answered (a load, a save, a cover upload): the form, the themes and the cover follow it. */
  const took = useCallback((r: AdminSettingsResponse) => {
    setForm(r.settings);
    setThemes(r.themes);
    setFrames(r.frames ?? []);
    setCover(r.cover_url);
  }, []);

  const load = useCallback(async () => {
    try {
      took(await adminApi.settings());
      setLoadError(null);
    } catch (err) {
      if (handleUnauthorized(err)) return;
      setLoadError(isForbidden(err) ? 'forbidden' : 'failed');
    }
  }, [took]);
  useEffect(() => {
    void load();
  }, [load]);

  if (loadError === 'forbidden') return <ForbiddenCard />;
  if (loadError) return <ErrorCard message={t('admin.settings.load_failed')} onRetry={() => void load()} />;
  if (!form) return <div className="skeleton" style={{ height: '24rem' }} role="status" aria-busy="true" aria-label={t('admin.settings.loading')} />;

  const set = <K extends keyof WeddingSettings>(k: K, v: WeddingSettings[K]) => setForm({ ...form, [k]: v });
  /** The props of a yes/no setting's switch. */
  const switchOf = (k: 'uploads_enabled' | 'show_uploader_names' | 'guest_downloads') => ({
    role: 'switch',
    checked: form[k],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(k, e.target.checked),
  });
  const setItem = (i: number, patch: Partial<ScheduleItem>) =>
    set(
      'schedule',
      form.schedule.map((it, j) => (j === i ? { ...it, ...patch } : it)),
    );

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    setSaveError(null);
    try {
      const r = await adminApi.saveSettings(form);
      took(r);
      settingsSaved(r.settings, r.cover_url); // the guest pages read this signal
      toast({ title: t('admin.settings.saved'), variant: 'success' });
    } catch (err) {
      if (!handleUnauthorized(err)) setSaveError(errorText(err, t('admin.settings.save_failed')));
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <form className="settings-page admin-form" onSubmit={save}>
        <div className="photos-head">
          <h1>{t('admin.dashboard.settings')}</h1>
          <button type="submit" className="btn" disabled={saving}>
            {saving ? t('admin.settings.saving') : t('admin.settings.save')}
          </button>
        </div>
        <ErrorAlert error={saveError} />

        <Card className="settings-section" title={t('admin.settings.couple')}>
          <div className="settings-row">
            <InputField id="st-name-1" label={t('admin.settings.first_name')} type="text" required value={form.couple_names[0]} onChange={(e) => set('couple_names', [e.target.value, form.couple_names[1]])} />
            <InputField id="st-name-2" label={t('admin.settings.second_name')} type="text" required value={form.couple_names[1]} onChange={(e) => set('couple_names', [form.couple_names[0], e.target.value])} />
          </div>
          <CheckboxRow label={t('admin.settings.uploads_enabled')} {...switchOf('uploads_enabled')} />
          <CheckboxRow label={t('admin.settings.show_names')} hint={t('admin.settings.show_names_hint')} hintId="st-names-hint" {...switchOf('show_uploader_names')} />
          <CheckboxRow label={t('admin.settings.guest_downloads')} hint={t('admin.settings.guest_downloads_hint')} hintId="st-downloads-hint" {...switchOf('guest_downloads')} />
          <Field id="st-wall-source" label={t('admin.settings.wall_source')}>
            <select id="st-wall-source" value={form.wall_source} onChange={(e) => set('wall_source', e.target.value as WallSource)}>
              <option value="all">{t('admin.settings.wall_source_all')}</option>
              <option value="highlights">{t('admin.settings.wall_source_highlights')}</option>
            </select>
          </Field>
        </Card>

        <LookSettings
          value={form}
          themes={themes}
          coverUrl={cover}
          onChange={(patch) => setForm({ ...form, ...patch })}
          onSaved={(r) => {
            // Only the cover changed on the server: the rest of the form keeps what is being edited.
            setForm({ ...form, cover_image: r.settings.cover_image, cover_photo_id: r.settings.cover_photo_id });
            setCover(r.cover_url);
          }}
        />

        <DayControls value={form} onChange={(patch) => setForm({ ...form, ...patch })} />

        <CameraSettings value={form} frames={frames} onChange={(patch) => setForm({ ...form, ...patch })} />

        <Card className="settings-section" title={t('admin.settings.texts')}>
          {LONG_TEXTS.map(({ id, key, label }) => (
            <Field key={key} id={id} label={t(label)}>
              <textarea id={id} value={form[key]} onChange={(e) => set(key, e.target.value)} />
            </Field>
          ))}
        </Card>

        <Card className="settings-section" title={t('admin.settings.schedule')}>
          {form.schedule.map((item, i) => (
            <fieldset key={i} className="schedule-item">
              <legend>{t('admin.settings.event', { number: i + 1 })}</legend>
              <div className="settings-grid">
                {SCHEDULE_FIELDS.map((f) => {
                  const id = `st-${i}-${f.key}`;
                  const props = { id, value: item[f.key], onChange: (e: { target: { value: string } }) => setItem(i, { [f.key]: e.target.value }) };
                  return (
                    <Field key={f.key} id={id} label={t(f.label)} className={f.long ? 'field-wide' : undefined}>
                      {f.long ? <textarea {...props} /> : <input type="text" required={f.key === 'title'} {...props} />}
                    </Field>
                  );
                })}
                <MomentTimes index={i} item={item} zone={form.time_zone} onChange={(patch) => setItem(i, patch)} />
              </div>
              {form.schedule.length > 1 && (
                <button type="button" className="btn btn-sm btn-outline" onClick={() => set('schedule', form.schedule.filter((_, j) => j !== i))}>
                  <Trash2 size={16} aria-hidden="true" />
                  {t('admin.settings.remove_event', { number: i + 1 })}
                </button>
              )}
            </fieldset>
          ))}
          {form.schedule.length < 10 && (
            <button type="button" className="btn btn-outline" onClick={() => set('schedule', [...form.schedule, blankItem()])}>
              <Plus size={18} aria-hidden="true" />
              {t('admin.settings.add_event')}
            </button>
          )}
        </Card>
        <ChallengesEditor value={form} onChange={(patch) => setForm({ ...form, ...patch })} />
        <TranslationsEditor value={form} onChange={(patch) => setForm({ ...form, ...patch })} />
        <TwoStepSetting value={form} onChange={(patch) => setForm({ ...form, ...patch })} />
        <NotifySettingsSection value={form} onChange={(patch) => setForm({ ...form, ...patch })} />
        <div className="settings-save">
          <button type="submit" className="btn" disabled={saving}>
            {saving ? t('admin.settings.saving') : t('admin.settings.save')}
          </button>
        </div>
      </form>
      {/* Its own form with its own Save: the bucket's settings restart the copy, and only admins see them. */}
      {permissionsOf(me.value).is_admin && <OffsiteCard />}
    </>
  );
}
