import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/http';
import { errorText } from '../../../api/admin';
import { securityApi, type LoginAnswer } from '../../../api/security';
import { ErrorAlert, InputField } from '../Field';
import { t } from '../t';

/** The sign-in forms' submit button, which says so while the server is asked. */
export function SignInButton({ busy, label }: { busy: boolean; label: string }) {
  return (
    <button type="submit" className="btn admin-login-submit" disabled={busy}>
      {busy ? t('admin.login.signing_in') : label}
    </button>
  );
}

/** The second step of a password sign-in: the authenticator app's code, or a recovery code. */
export function CodeStep({ onDone, onRestart }: { onDone: (r: LoginAnswer) => void; onRestart: () => void }) {
  const [code, setCode] = useState('');
  const [recovery, setRecovery] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await securityApi.loginCode(code.trim()));
    } catch (err) {
      // The password step was too long ago: start again from the password.
      if (err instanceof ApiError && (err.body as { expired?: boolean } | null)?.expired) return onRestart();
      setError(errorText(err, t('admin.login.failed')));
      setBusy(false);
      setCode('');
    }
  };

  return (
    <form onSubmit={submit} className="admin-form admin-code-step">
      <h2 className="card-title">{t('admin.login.code_title')}</h2>
      <p className="muted">{recovery ? t('admin.login.recovery_hint') : t('admin.login.code_hint')}</p>
      <ErrorAlert error={error} />
      <InputField
        id="admin-code"
        label={recovery ? t('admin.login.recovery_label') : t('admin.login.code_label')}
        type="text"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        autoFocus
        required
        maxLength={recovery ? 20 : 6}
        disabled={busy}
        value={code}
        onValue={setCode}
      />
      <SignInButton busy={busy} label={t('admin.login.code_submit')} />
      <button type="button" className="btn btn-ghost" onClick={() => setRecovery((r) => !r)}>
        {recovery ? t('admin.login.use_app_code') : t('admin.login.use_recovery')}
      </button>
    </form>
  );
}
