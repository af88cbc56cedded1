import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'wouter';
import type { MeResponse } from '../../../common/api-types';
import { adminApi, errorText } from '../../api/admin';
import { securityApi, type LoginAnswer } from '../../api/security';
import { setMe, takeSignedOut } from '../../state/admin';
import { Footer } from '../../components/Footer';
import { ErrorAlert, InputField } from '../../components/admin/Field';
import { CodeStep, SignInButton } from '../../components/admin/security/CodeStep';
import { PasskeySignIn } from '../../components/admin/security/PasskeySignIn';
import { toast } from '../../components/ui/toast';
import { t } from '../../components/admin/t';

/**
 * /admin/login (SPEC §2, §4 "Login form", §8 login failure): the password form and "Sign in with a
 * passkey"; with authenticator codes on, a second step asks for the code.
 */
export function LoginPage() {
  const [, setLocation] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [step, setStep] = useState<'password' | 'code'>('password');

  /** Where a sign-in goes on: the code step, the passkey, the set-up, or the dashboard. */
  const next = (r: LoginAnswer | null) => {
    setBusy(false);
    if (r?.needs_code) return setStep('code');
    if (r?.needs_passkey) return setError(t('admin.login.needs_passkey'));
    if (r && r.user && r.user_permissions) setMe(r as MeResponse);
    if (typeof r?.recovery_codes_left === 'number') {
      toast({ title: t('admin.login.recovery_left', { count: r.recovery_codes_left }), variant: r.recovery_codes_left < 3 ? 'destructive' : 'default' });
    }
    setLocation(r?.needs_setup ? '/security' : '/dashboard');
  };

  // Someone already signed in goes straight on to the dashboard.
  useEffect(() => {
    if (takeSignedOut()) return;
    let live = true;
    adminApi
      .me()
      .then((r) => {
        if (!live) return;
        setMe(r);
        setLocation('/dashboard', { replace: true });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [setLocation]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      next(await securityApi.login(username, password));
    } catch (err) {
      setError(errorText(err, t('admin.login.failed')));
      setBusy(false);
    }
  };

  return (
    <div className="page admin-login-page">
      <main className="container admin-login">
        <div className="card admin-login-card">
          <h1>{t('admin.login.title')}</h1>
          <p className="muted">{t('admin.login.subtitle')}</p>
          <ErrorAlert error={error} />
          {step === 'code' ? (
            <CodeStep
              onDone={next}
              onRestart={() => {
                setStep('password');
                setPassword('');
              }}
            />
          ) : (
          <>
          <form onSubmit={submit} className="admin-form">
            <InputField
              id="admin-username"
              label={t('admin.login.username')}
              type="text"
              autoComplete="username"
              placeholder={t('admin.login.username_placeholder')}
              required
              disabled={busy}
              value={username}
              onValue={setUsername}
            />
            <InputField
              id="admin-password"
              label={t('admin.login.password')}
              type="password"
              autoComplete="current-password"
              placeholder={t('admin.login.password_placeholder')}
              required
              disabled={busy}
              value={password}
              onValue={setPassword}
            />
            <SignInButton busy={busy} label={t('admin.login.submit')} />
          </form>
          <div className="admin-login-or">
            <span>{t('admin.login.or')}</span>
          </div>
          <PasskeySignIn
            onSignedIn={next}
            onError={(text) => {
              setError(text);
            }}
          />
          </>
          )}
          <p className="admin-login-back">
            <Link href="~/">{t('admin.login.back')}</Link>
          </p>
        </div>
      </main>
      <Footer />
    </div>
  );
}
