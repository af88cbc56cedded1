import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import type { AdminSettingsResponse, ScheduleItem, ThemeInfo, WallSource, WeddingSettings } from '../../../common/api-types';
import { adminApi, errorText, isForbidden } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { settingsSaved } from '../../state/settings';
import { toast } from '../../components/ui/toast';
import { ErrorCard } from '../../components/admin/AdminShell';
import { ChallengesEditor } from '../../components/admin/ChallengesEditor';
import { DayControls } from '../../components/admin/DayControls';
import { LookSettings } from '../../components/admin/LookSettings';
import { MomentTimes } from '../../components/admin/MomentTimes';
import { TranslationsEditor } from '../../components/admin/TranslationsEditor';
import { NotifySettingsSection, TwoStepSetting } from '../../components/admin/security/AccountSettings';
import { SCHEDULE_FIELDS } from '../../components/admin/schedule-fields';
import { t } from '../../components/admin/t';


const blankItem = (): ScheduleItem => ({ title: '', day: '', time: '', venue: '', location: '', attire: '', attendance: '', description: '' });

/** /admin/settings: the wedding content of the guest pages and the uploads switch (admins only). */
export function SettingsPage() {
  const [form, setForm] = useState<WeddingSettings | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [themes, setThemes] = useState<ThemeInfo[]>([]);
  const [cover, setCover] = useState<string | null>(null);
  /** What the server answered (a load, a save, a cover upload): the form, the themes and the cover follow it. */
  const took = useCallback((r: AdminSettingsResponse) => {
    setForm(r.settings);
    setThemes(r.themes);
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

  if (loadError === 'forbidden')
    return (
      <div className="card admin-error-card" role="alert">
        <p>{t('admin.forbidden')}</p>
      </div>
    );
  if (loadError) return <ErrorCard message={t('admin.settings.load_failed')} onRetry={() => void load()} />;
  if (!form) return <div className="skeleton" style={{ height: '24rem' }} role="status" aria-busy="true" aria-label={t('admin.settings.loading')} />;

  const set = <K extends keyof WeddingSettings>(k: K, v: WeddingSettings[K]) => setForm({ ...form, [k]: v });
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
    <form className="settings-page admin-form" onSubmit={save}>
      <div className="photos-head">
        <h1>{t('admin.dashboard.settings')}</h1>
        <button type="submit" className="btn" disabled={saving}>
          {saving ? t('admin.settings.saving') : t('admin.settings.save')}
        </button>
      </div>
      {saveError && (
        <div className="alert alert-destructive" role="alert">
          {saveError}
        </div>
      )}

      <section className="card settings-section">
        <h2 className="card-title">{t('admin.settings.couple')}</h2>
        <div className="settings-row">
          <div className="field">
            <label htmlFor="st-name-1">{t('admin.settings.first_name')}</label>
            <input id="st-name-1" type="text" required value={form.couple_names[0]} onChange={(e) => set('couple_names', [e.target.value, form.couple_names[1]])} />
          </div>
          <div className="field">
            <label htmlFor="st-name-2">{t('admin.settings.second_name')}</label>
            <input id="st-name-2" type="text" required value={form.couple_names[1]} onChange={(e) => set('couple_names', [form.couple_names[0], e.target.value])} />
          </div>
        </div>
        <label className="checkbox-row">
          <input type="checkbox" role="switch" checked={form.uploads_enabled} onChange={(e) => set('uploads_enabled', e.target.checked)} />
          {t('admin.settings.uploads_enabled')}
        </label>
        <label className="checkbox-row">
          <input
            type="checkbox"
            role="switch"
            aria-describedby="st-names-hint"
            checked={form.show_uploader_names}
            onChange={(e) => set('show_uploader_names', e.target.checked)}
          />
          {t('admin.settings.show_names')}
        </label>
        <p id="st-names-hint" className="muted">
          {t('admin.settings.show_names_hint')}
        </p>
        <label className="checkbox-row">
          <input type="checkbox" role="switch" aria-describedby="st-downloads-hint" checked={form.guest_downloads} onChange={(e) => set('guest_downloads', e.target.checked)} />
          {t('admin.settings.guest_downloads')}
        </label>
        <p id="st-downloads-hint" className="muted">
          {t('admin.settings.guest_downloads_hint')}
        </p>
        <div className="field">
          <label htmlFor="st-wall-source">{t('admin.settings.wall_source')}</label>
          <select id="st-wall-source" value={form.wall_source} onChange={(e) => set('wall_source', e.target.value as WallSource)}>
            <option value="all">{t('admin.settings.wall_source_all')}</option>
            <option value="highlights">{t('admin.settings.wall_source_highlights')}</option>
          </select>
        </div>
      </section>

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

      <section className="card settings-section">
        <h2 className="card-title">{t('admin.settings.texts')}</h2>
        <div className="field">
          <label htmlFor="st-welcome">{t('admin.settings.welcome')}</label>
          <textarea id="st-welcome" value={form.welcome_message} onChange={(e) => set('welcome_message', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="st-sharing">{t('admin.settings.sharing')}</label>
          <textarea id="st-sharing" value={form.photo_sharing_message} onChange={(e) => set('photo_sharing_message', e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="st-thanks">{t('admin.settings.thanks')}</label>
          <textarea id="st-thanks" value={form.thank_you_message} onChange={(e) => set('thank_you_message', e.target.value)} />
        </div>
      </section>

      <section className="card settings-section">
        <h2 className="card-title">{t('admin.settings.schedule')}</h2>
        {form.schedule.map((item, i) => (
          <fieldset key={i} className="schedule-item">
            <legend>{t('admin.settings.event', { number: i + 1 })}</legend>
            <div className="settings-grid">
              {SCHEDULE_FIELDS.map((f) => (
                <div key={f.key} className={`field${f.long ? ' field-wide' : ''}`}>
                  <label htmlFor={`st-${i}-${f.key}`}>{t(f.label)}</label>
                  {f.long ? (
                    <textarea id={`st-${i}-${f.key}`} value={item[f.key]} onChange={(e) => setItem(i, { [f.key]: e.target.value })} />
                  ) : (
                    <input id={`st-${i}-${f.key}`} type="text" required={f.key === 'title'} value={item[f.key]} onChange={(e) => setItem(i, { [f.key]: e.target.value })} />
                  )}
                </div>
              ))}
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
      </section>
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
  );
}
