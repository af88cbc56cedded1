import { useState } from 'react';
import Send from 'lucide-react/icons/send';
import type { WeddingSettings } from '../../../../common/api-types';
import type { AccountSettings, NotifySettings, NotifyTestResponse } from '../../../../common/security-types';
import { errorText } from '../../../api/admin';
import { securityApi } from '../../../api/security';
import { Card } from '../Card';
import { CheckboxRow, InputField } from '../Field';
import { CHANNEL_NAMES } from './NotifyFailures';
import { t } from '../t';

type Form = WeddingSettings & Partial<AccountSettings>;
type Props = { value: Form; onChange: (patch: Partial<AccountSettings>) => void };

const EMPTY: NotifySettings = { ntfy_url: null, webhook_url: null, smtp_url: null, from: null, to: null };

/** Settings: "Require two-step sign-in", with what it means for every account. */
export function TwoStepSetting({ value, onChange }: Props) {
  return (
    <Card className="settings-section" titleId="st-two-step" title={t('admin.settings.two_step_title')}>
      <CheckboxRow
        role="switch"
        label={t('admin.settings.require_two_step')}
        hint={t('admin.settings.require_two_step_hint')}
        hintId="st-two-step-hint"
        checked={value.require_two_step === true}
        onChange={(e) => onChange({ require_two_step: e.target.checked })}
      />
    </Card>
  );
}

/** Settings: where the couple is told what needs them (ntfy, a webhook, e-mail), and "Send a test". */
export function NotifySettingsSection({ value, onChange }: Props) {
  const n = value.notify ?? EMPTY;
  const [results, setResults] = useState<NotifyTestResponse['results'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: keyof NotifySettings, v: string) => onChange({ notify: { ...n, [k]: v.trim() ? v : null } });
  const field = (k: keyof NotifySettings, label: string, type: string, placeholder: string) => (
    <InputField id={`st-notify-${k}`} label={label} type={type} autoComplete="off" spellCheck={false} dir="ltr" placeholder={placeholder} value={n[k] ?? ''} onValue={(v) => set(k, v)} />
  );

  const test = async () => {
    setBusy(true);
    setError(null);
    setResults(null);
    try {
      setResults((await securityApi.notifyTest(n)).results);
    } catch (err) {
      setError(errorText(err, t('admin.settings.notify_test_failed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="settings-section" titleId="st-notify" title={t('admin.settings.notify_title')}>
      <p className="muted">{t('admin.settings.notify_intro')}</p>
      {field('ntfy_url', t('admin.settings.notify_ntfy_url'), 'url', 'https://ntfy.sh/our-wedding-7f3k')}
      {field('webhook_url', t('admin.settings.notify_webhook_url'), 'url', 'https://example.com/hook')}
      {field('smtp_url', t('admin.settings.notify_smtp_url'), 'text', 'smtps://user:password@mail.example.com')}
      <div className="settings-row">
        {field('from', t('admin.settings.notify_from'), 'email', 'wedding@example.com')}
        {field('to', t('admin.settings.notify_to'), 'text', 'emma@example.com, james@example.com')}
      </div>
      <p className="muted">{t('admin.settings.notify_secrets')}</p>
      <button type="button" className="btn btn-outline" disabled={busy} onClick={() => void test()}>
        <Send size={16} aria-hidden="true" />
        {busy ? t('admin.settings.notify_testing') : t('admin.settings.notify_test')}
      </button>
      <div aria-live="polite" data-testid="notify-results">
        {error && (
          <p className="alert alert-destructive" role="alert">
            {error}
          </p>
        )}
        {results && (
          <ul className="notify-results">
            {results.map((r) => (
              <li key={r.channel} className={r.ok ? 'notify-ok' : 'notify-failed'}>
                {r.ok ? t('admin.settings.notify_result_ok', { channel: t(CHANNEL_NAMES[r.channel]) }) : t('admin.settings.notify_result_failed', { channel: t(CHANNEL_NAMES[r.channel]), reason: r.error ?? '' })}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}
