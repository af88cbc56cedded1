import { useCallback, useEffect, useState, type FormEvent, type ReactNode } from 'react';
import type { OffsiteForm, OffsiteFormField, OffsiteResponse, OffsiteSettingsView, OffsiteStatusView } from '../../../common/offsite-types';
import { OFFSITE_PRESETS, envName } from '../../../server/offsite/offsite.config';
import { adminApi, problemsOf } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { toast } from '../ui/toast';
import { Card } from './Card';
import { CheckboxRow, ErrorAlert, Field } from './Field';
import { filesText, stateText } from './offsite-words';
import { formatDateTime, t } from './t';

/** The status is looked at again this often while the page is open (the form is left alone). */
const STATUS_EVERY_MS = 30_000;

const formOf = (s: OffsiteSettingsView): OffsiteForm => {
  const { has_secret: _h, from_env: _e, ...rest } = s;
  return { ...rest, secret_access_key: '' };
};

/** What the server would take: the fields the environment fixes are left out, and an empty secret keeps the saved one. */
function bodyOf(form: OffsiteForm, fixed: ReadonlySet<OffsiteFormField>): Partial<OffsiteForm> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(form)) {
    if (fixed.has(k as OffsiteFormField)) continue;
    if (k === 'secret_access_key' && v === '') continue;
    out[k] = v;
  }
  return out as Partial<OffsiteForm>;
}

function OffsiteStatus({ status }: { status: OffsiteStatusView }) {
  return (
    <div className="offsite-status" role="status">
      <p className={status.state === 'failing' ? 'offsite-state offsite-failing' : 'offsite-state'}>{stateText(status)}</p>
      {status.state === 'failing' && status.last_error && <p className="offsite-failing">{status.last_error.message}</p>}
      {status.configured && (
        <ul className="offsite-facts">
          <li>{filesText(status)}</li>
          {status.last_copied_at && <li>{t('admin.offsite.last_file', { time: formatDateTime(status.last_copied_at) })}</li>}
          <li>{status.database?.last_copy_at ? t('admin.offsite.database_at', { time: formatDateTime(status.database.last_copy_at) }) : t('admin.offsite.database_none')}</li>
        </ul>
      )}
    </div>
  );
}

/**
 * The settings page's "Off-site copy" (role admin only): where the couple's bucket is, a test of
 * it, and how the copy fares. Its own form: saving it restarts the copy, not the page's settings.
 */
export function OffsiteCard() {
  const [status, setStatus] = useState<OffsiteStatusView | null>(null);
  const [view, setView] = useState<OffsiteSettingsView | null>(null);
  const [form, setForm] = useState<OffsiteForm | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [preset, setPreset] = useState('');
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);
  const [problems, setProblems] = useState<string[]>([]);
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);

  const took = useCallback((r: OffsiteResponse, withForm: boolean) => {
    const { success: _s, settings, ...st } = r;
    setStatus(st);
    if (withForm && settings) {
      setView(settings);
      setForm(formOf(settings));
    }
  }, []);

  const load = useCallback(
    async (withForm: boolean) => {
      try {
        took(await adminApi.offsite(), withForm);
        setLoadFailed(false);
      } catch (err) {
        if (!handleUnauthorized(err) && withForm) setLoadFailed(true);
      }
    },
    [took],
  );
  useEffect(() => {
    void load(true);
    const timer = setInterval(() => void load(false), STATUS_EVERY_MS);
    return () => clearInterval(timer);
  }, [load]);

  const title = t('admin.offsite.title');
  if (loadFailed)
    return (
      <Card className="settings-section" titleId="st-offsite" title={title}>
        <ErrorAlert error={t('admin.offsite.load_failed')} />
        <button type="button" className="btn btn-outline" onClick={() => void load(true)}>
          {t('admin.try_again')}
        </button>
      </Card>
    );
  if (!form || !view || !status)
    return (
      <Card className="settings-section" titleId="st-offsite" title={title}>
        <div className="skeleton" style={{ height: '12rem' }} role="status" aria-busy="true" aria-label={t('admin.settings.loading')} />
      </Card>
    );

  const fixed = new Set(view.from_env);
  const set = <K extends OffsiteFormField>(k: K, v: OffsiteForm[K]) => setForm({ ...form, [k]: v });
  /** A field the environment fixes says so under it, in place of its own hint. */
  const hintOf = (k: OffsiteFormField, own?: string): string | undefined => (fixed.has(k) ? t('admin.offsite.from_env', { name: envName(k) }) : own);
  const text = (k: 'endpoint' | 'region' | 'bucket' | 'prefix' | 'access_key_id' | 'public_url', label: string, opts: { type?: string; placeholder?: string; hint?: string } = {}) => {
    const id = `st-offsite-${k}`;
    const hint = hintOf(k, opts.hint);
    return (
      <Field id={id} label={label} hint={hint} hintId={hint ? `${id}-hint` : undefined}>
        <input
          id={id}
          type={opts.type ?? 'text'}
          dir="ltr"
          autoComplete="off"
          spellCheck={false}
          placeholder={opts.placeholder}
          readOnly={fixed.has(k)}
          aria-describedby={hint ? `${id}-hint` : undefined}
          value={form[k]}
          onChange={(e) => set(k, e.target.value)}
        />
      </Field>
    );
  };

  const pick = (id: string) => {
    setPreset(id);
    const p = OFFSITE_PRESETS.find((x) => x.id === id);
    if (!p) return;
    const patch: Partial<OffsiteForm> = {};
    if (!fixed.has('endpoint')) patch.endpoint = p.endpoint;
    if (!fixed.has('region')) patch.region = p.region;
    if (!fixed.has('force_path_style')) patch.force_path_style = p.force_path_style;
    setForm({ ...form, ...patch });
  };

  /** An endpoint still holding a preset's <region> or <account-id> is not an address yet. */
  const ready = (): boolean => {
    if (!/[<>]/.test(form.endpoint)) return true;
    setProblems([t('admin.offsite.fill_placeholder')]);
    return false;
  };

  const test = async () => {
    setProblems([]);
    setTested(null);
    if (!ready()) return;
    setBusy('test');
    try {
      const r = await adminApi.testOffsite(bodyOf(form, fixed));
      setTested(r.ok ? { ok: true, text: t('admin.offsite.test_ok') } : { ok: false, text: r.message });
    } catch (err) {
      if (!handleUnauthorized(err)) setProblems(problemsOf(err, t('admin.offsite.test_failed')));
    } finally {
      setBusy(null);
    }
  };

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setProblems([]);
    setTested(null);
    if (!ready()) return;
    setBusy('save');
    try {
      took(await adminApi.saveOffsite(bodyOf(form, fixed)), true);
      toast({ title: t('admin.offsite.saved'), variant: 'success' });
    } catch (err) {
      if (!handleUnauthorized(err)) setProblems(problemsOf(err, t('admin.settings.save_failed')));
    } finally {
      setBusy(null);
    }
  };

  const presetsFixed = fixed.has('endpoint') && fixed.has('region') && fixed.has('force_path_style');
  const secretHint = hintOf('secret_access_key', view.has_secret ? t('admin.offsite.secret_saved') : undefined);
  const switchHint = (k: 'force_path_style' | 'serve', own: string): { hint: ReactNode; hintId: string } => ({ hint: hintOf(k, own), hintId: `st-offsite-${k}-hint` });

  return (
    <Card className="settings-section offsite-card" titleId="st-offsite" title={title}>
      <p className="muted">{t('admin.offsite.intro')}</p>
      <OffsiteStatus status={status} />

      <form className="admin-form" onSubmit={save} noValidate>
        {!presetsFixed && (
          <Field id="st-offsite-preset" label={t('admin.offsite.preset')} hint={t('admin.offsite.preset_hint')} hintId="st-offsite-preset-hint">
            <select id="st-offsite-preset" value={preset} aria-describedby="st-offsite-preset-hint" onChange={(e) => pick(e.target.value)}>
              <option value="">{t('admin.offsite.preset_choose')}</option>
              {OFFSITE_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
        )}
        {text('endpoint', t('admin.offsite.endpoint'), { type: 'url', placeholder: 'https://s3.eu-central-003.backblazeb2.com' })}
        <div className="settings-row">
          {text('region', t('admin.offsite.region'), { placeholder: 'us-east-1' })}
          {text('bucket', t('admin.offsite.bucket'), { placeholder: 'our-wedding-photos' })}
        </div>
        {text('prefix', t('admin.offsite.prefix'), { placeholder: 'wedding/', hint: t('admin.offsite.prefix_hint') })}
        <div className="settings-row">
          {text('access_key_id', t('admin.offsite.key_id'))}
          <Field id="st-offsite-secret" label={t('admin.offsite.secret')} hint={secretHint} hintId={secretHint ? 'st-offsite-secret-hint' : undefined}>
            <input
              id="st-offsite-secret"
              type="password"
              dir="ltr"
              autoComplete="new-password"
              spellCheck={false}
              placeholder={view.has_secret ? t('admin.offsite.secret_placeholder') : undefined}
              readOnly={fixed.has('secret_access_key')}
              aria-describedby={secretHint ? 'st-offsite-secret-hint' : undefined}
              value={form.secret_access_key}
              onChange={(e) => set('secret_access_key', e.target.value)}
            />
          </Field>
        </div>
        <CheckboxRow
          id="st-offsite-path-style"
          label={t('admin.offsite.path_style')}
          {...switchHint('force_path_style', t('admin.offsite.path_style_hint'))}
          role="switch"
          checked={form.force_path_style}
          disabled={fixed.has('force_path_style')}
          onChange={(e) => set('force_path_style', e.target.checked)}
        />
        <CheckboxRow
          id="st-offsite-serve"
          label={t('admin.offsite.serve')}
          {...switchHint('serve', t('admin.offsite.serve_hint'))}
          role="switch"
          checked={form.serve}
          disabled={fixed.has('serve')}
          onChange={(e) => set('serve', e.target.checked)}
        />
        <Field id="st-offsite-keep" label={t('admin.offsite.keep_local')} hint={hintOf('keep_local', t('admin.offsite.keep_hint'))} hintId="st-offsite-keep-hint">
          <select id="st-offsite-keep" value={form.keep_local} disabled={fixed.has('keep_local')} aria-describedby="st-offsite-keep-hint" onChange={(e) => set('keep_local', e.target.value as OffsiteForm['keep_local'])}>
            <option value="all">{t('admin.offsite.keep_all')}</option>
            <option value="derivatives">{t('admin.offsite.keep_derivatives')}</option>
          </select>
        </Field>
        {text('public_url', t('admin.offsite.public_url'), { type: 'url', placeholder: 'https://photos.example.com', hint: t('admin.offsite.public_url_hint') })}

        <ErrorAlert error={problems.length ? problems : null} />
        <div aria-live="polite" data-testid="offsite-test-result">
          {tested && (tested.ok ? <p className="notify-ok">{tested.text}</p> : <p className="alert alert-destructive">{tested.text}</p>)}
        </div>
        <div className="offsite-actions">
          <button type="button" className="btn btn-outline" disabled={busy !== null} onClick={() => void test()}>
            {busy === 'test' ? t('admin.offsite.testing') : t('admin.offsite.test')}
          </button>
          <button type="submit" className="btn" disabled={busy !== null}>
            {busy === 'save' ? t('admin.settings.saving') : t('admin.settings.save')}
          </button>
        </div>
      </form>
    </Card>
  );
}
