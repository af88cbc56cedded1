import { useState, type FormEvent } from 'react';
import type { SecurityStatus, TwoStepSetup } from '../../../../common/security-types';
import { errorText } from '../../../api/admin';
import { securityApi } from '../../../api/security';
import { toast } from '../../ui/toast';
import { Card } from '../Card';
import { ErrorAlert, InputField } from '../Field';
import { RecoveryCodes } from './RecoveryCodes';
import { t } from '../t';

type Mode = { kind: 'idle' } | { kind: 'setup'; setup: TwoStepSetup } | { kind: 'codes'; codes: string[] } | { kind: 'confirm'; action: 'disable' | 'new_codes' };

/** Authenticator codes: set up with a QR code (drawn by the server), recovery codes, turn off. */
export function AuthenticatorCard({ status, onChange, reload }: { status: SecurityStatus; onChange: (s: SecurityStatus) => void; reload: () => void }) {
  const [mode, setMode] = useState<Mode>({ kind: 'idle' });
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = status.two_step.enabled;

  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
      setCode('');
    } catch (err) {
      setError(errorText(err, t('admin.security.failed')));
    } finally {
      setBusy(false);
    }
  };

  const start = () => run(async () => setMode({ kind: 'setup', setup: await securityApi.startTwoStep() }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode.kind === 'setup') return void run(async () => setMode({ kind: 'codes', codes: (await securityApi.enableTwoStep(code.trim())).recovery_codes }));
    if (mode.kind !== 'confirm') return;
    if (mode.action === 'disable') {
      return void run(async () => {
        onChange(await securityApi.disableTwoStep(code.trim()));
        setMode({ kind: 'idle' });
        toast({ title: t('admin.security.codes_off'), variant: 'success' });
      });
    }
    void run(async () => setMode({ kind: 'codes', codes: (await securityApi.newRecoveryCodes(code.trim())).recovery_codes }));
  };

  const codeField = (label: string) => (
    <form className="admin-form" onSubmit={submit}>
      <ErrorAlert error={error} />
      <InputField id="sec-code" label={label} type="text" inputMode="numeric" autoComplete="one-time-code" required maxLength={20} value={code} onValue={setCode} />
      <div className="security-actions">
        <button type="submit" className="btn" disabled={busy}>
          {t('admin.security.confirm')}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => setMode({ kind: 'idle' })}>
          {t('admin.security.cancel')}
        </button>
      </div>
    </form>
  );

  return (
    <Card className="settings-section" titleId="sec-totp" title={t('admin.security.codes_heading')}>
      <p className="muted">{t('admin.security.codes_explain')}</p>
      {mode.kind === 'codes' ? (
        <RecoveryCodes
          codes={mode.codes}
          onDone={() => {
            setMode({ kind: 'idle' });
            reload();
          }}
        />
      ) : mode.kind === 'setup' ? (
        <div className="totp-setup">
          <ol>
            <li>{t('admin.security.setup_step_app')}</li>
            <li>{t('admin.security.setup_step_scan')}</li>
          </ol>
          <img className="totp-qr" width={220} height={220} alt={t('admin.security.qr_alt')} src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(mode.setup.qr_svg)}`} />
          <p>
            {t('admin.security.setup_key')} <code translate="no" data-testid="totp-secret">{mode.setup.secret}</code>
          </p>
          {codeField(t('admin.security.setup_code'))}
        </div>
      ) : mode.kind === 'confirm' ? (
        codeField(mode.action === 'disable' ? t('admin.security.disable_code') : t('admin.security.new_codes_code'))
      ) : on ? (
        <>
          <p data-testid="two-step-on">
            <strong>{t('admin.security.codes_are_on')}</strong> {t('admin.security.codes_left', { count: status.two_step.recovery_codes_left })}
          </p>
          <div className="security-actions">
            <button type="button" className="btn btn-outline" onClick={() => setMode({ kind: 'confirm', action: 'new_codes' })}>
              {t('admin.security.new_codes')}
            </button>
            <button type="button" className="btn btn-outline" onClick={() => setMode({ kind: 'confirm', action: 'disable' })}>
              {t('admin.security.turn_off')}
            </button>
          </div>
        </>
      ) : (
        <>
          <ErrorAlert error={error} />
          <button type="button" className="btn" disabled={busy} onClick={() => void start()}>
            {t('admin.security.set_up')}
          </button>
        </>
      )}
    </Card>
  );
}
