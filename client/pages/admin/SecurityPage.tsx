import { useCallback, useEffect, useState } from 'react';
import type { SecurityStatus } from '../../../common/security-types';
import { securityApi } from '../../api/security';
import { handleUnauthorized, loadMe } from '../../state/admin';
import { ErrorCard } from '../../components/admin/AdminShell';
import { AuthenticatorCard } from '../../components/admin/security/AuthenticatorCard';
import { PasskeysCard } from '../../components/admin/security/PasskeysCard';
import { t } from '../../components/admin/t';

/** /admin/security: the signed-in account's passkeys and authenticator codes (every role). */
export function SecurityPage() {
  const [status, setStatus] = useState<SecurityStatus | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setStatus(await securityApi.status());
      setFailed(false);
    } catch (err) {
      if (!handleUnauthorized(err)) setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  // Once the set-up that was required is done, the rest of the panel opens.
  // Answers to changes carry the account's methods; where passkeys work stays as first read.
  const change = (s: SecurityStatus) => {
    if (status?.setup_required && !s.setup_required) void loadMe(true);
    setStatus((old) => ({ ...s, passkey_support: s.passkey_support ?? old?.passkey_support, setup_required: s.setup_required ?? false }));
  };

  if (failed) return <ErrorCard message={t('admin.security.load_failed')} onRetry={() => void load()} />;
  if (!status) return <div className="skeleton" style={{ height: '18rem' }} role="status" aria-busy="true" aria-label={t('admin.security.loading')} />;

  return (
    <div className="settings-page security-page">
      <h1>{t('admin.security.title')}</h1>
      {status.setup_required && (
        <div className="alert" role="alert" data-testid="setup-required">
          {t('admin.security.setup_required')}
        </div>
      )}
      {status.require_two_step && !status.setup_required && <p className="muted">{t('admin.security.required_note')}</p>}
      <PasskeysCard status={status} onChange={change} />
      <AuthenticatorCard status={status} onChange={change} reload={() => void securityApi.status().then(change, () => undefined)} />
    </div>
  );
}
