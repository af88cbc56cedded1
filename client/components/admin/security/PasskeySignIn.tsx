import { useEffect, useState } from 'react';
import KeyRound from 'lucide-react/icons/key-round';
import type { PasskeySupport } from '../../../../common/security-types';
import { errorText } from '../../../api/admin';
import { securityApi, webauthn, type LoginAnswer } from '../../../api/security';
import { t } from '../t';

/** Why the button is not offered here, in words. */
export function passkeyUnavailableText(s: PasskeySupport): string {
  if (s.reason === 'other_address' && s.use_at) return t('admin.security.passkeys_use_at', { url: s.use_at });
  return t('admin.security.passkeys_insecure');
}

/** "Sign in with a passkey": no username; the browser offers this site's passkeys. */
export function PasskeySignIn({ onSignedIn, onError }: { onSignedIn: (r: LoginAnswer) => void; onError: (text: string) => void }) {
  const [support, setSupport] = useState<PasskeySupport | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    securityApi
      .passkeySupport()
      .then((r) => live && setSupport(r.passkey_support))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  if (!support) return null;
  const browserCan = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  if (!support.available || !browserCan) {
    return (
      <p className="muted admin-passkey-note" data-testid="passkey-unavailable">
        {support.available ? t('admin.security.passkeys_browser') : passkeyUnavailableText(support)}
      </p>
    );
  }

  const signIn = async () => {
    setBusy(true);
    try {
      const [{ startAuthentication }, { options }] = await Promise.all([webauthn(), securityApi.passkeyLoginOptions()]);
      const response = await startAuthentication({ optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'] });
      onSignedIn(await securityApi.passkeyLogin(response));
    } catch (err) {
      // The person closed the browser's prompt: nothing to say.
      if ((err as { name?: string })?.name !== 'NotAllowedError') onError(errorText(err, t('admin.login.passkey_failed')));
      setBusy(false);
    }
  };

  return (
    <button type="button" className="btn btn-outline admin-passkey-button" disabled={busy} onClick={() => void signIn()}>
      <KeyRound size={18} aria-hidden="true" />
      {busy ? t('admin.login.passkey_busy') : t('admin.login.passkey')}
    </button>
  );
}
