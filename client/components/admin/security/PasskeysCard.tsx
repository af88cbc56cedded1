import { useState } from 'react';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import type { PasskeyInfo, SecurityStatus } from '../../../../common/security-types';
import { errorText } from '../../../api/admin';
import { securityApi, webauthn } from '../../../api/security';
import { toast } from '../../ui/toast';
import { Card } from '../Card';
import { InputField } from '../Field';
import { passkeyUnavailableText } from './PasskeySignIn';
import { formatDateTime, t } from '../t';

/** Passkeys of the signed-in account: add (with a name), rename, remove. */
export function PasskeysCard({ status, onChange }: { status: SecurityStatus; onChange: (s: SecurityStatus) => void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const fail = (err: unknown) => toast({ title: errorText(err, t('admin.security.failed')), variant: 'destructive' });
  const support = status.passkey_support;

  const add = async () => {
    setBusy(true);
    try {
      const [{ startRegistration }, { options }] = await Promise.all([webauthn(), securityApi.passkeyOptions()]);
      const response = await startRegistration({ optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'] });
      onChange(await securityApi.addPasskey(response, name.trim()));
      setName('');
      toast({ title: t('admin.security.passkey_added'), variant: 'success' });
    } catch (err) {
      if ((err as { name?: string })?.name !== 'NotAllowedError') fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="settings-section" titleId="sec-passkeys" title={t('admin.security.passkeys_title')}>
      <p className="muted">{t('admin.security.passkeys_intro')}</p>
      {status.passkeys.length > 0 ? (
        <ul className="security-list">
          {status.passkeys.map((p) => (
            <PasskeyRow key={p.id} passkey={p} onChange={onChange} onError={fail} />
          ))}
        </ul>
      ) : (
        <p>{t('admin.security.passkeys_none')}</p>
      )}
      {support.available ? (
        <div className="settings-row security-add">
          <InputField id="sec-passkey-name" label={t('admin.security.passkey_name')} type="text" maxLength={60} placeholder={t('admin.security.passkey_name_placeholder')} value={name} onValue={setName} />
          <button type="button" className="btn" disabled={busy} onClick={() => void add()}>
            {busy ? t('admin.security.passkey_adding') : t('admin.security.passkey_add')}
          </button>
        </div>
      ) : (
        <p className="alert" data-testid="passkey-unavailable">
          {passkeyUnavailableText(support)}
        </p>
      )}
    </Card>
  );
}

function PasskeyRow({ passkey: p, onChange, onError }: { passkey: PasskeyInfo; onChange: (s: SecurityStatus) => void; onError: (e: unknown) => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const rename = async () => {
    try {
      onChange(await securityApi.renamePasskey(p.id, editing ?? ''));
      setEditing(null);
    } catch (err) {
      onError(err);
    }
  };
  const remove = async () => {
    if (!window.confirm(t('admin.security.passkey_confirm_remove', { name: p.name }))) return;
    try {
      onChange(await securityApi.removePasskey(p.id));
    } catch (err) {
      onError(err);
    }
  };
  return (
    <li className="security-item">
      {editing !== null ? (
        <form
          className="settings-row"
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <InputField id={`pk-${p.id}`} label={t('admin.security.passkey_name')} type="text" required maxLength={60} autoFocus value={editing} onValue={setEditing} />
          <button type="submit" className="btn btn-sm">
            {t('admin.security.save')}
          </button>
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => setEditing(null)}>
            {t('admin.security.cancel')}
          </button>
        </form>
      ) : (
        <>
          <div>
            <strong dir="auto">{p.name}</strong>
            <div className="muted">
              {t('admin.security.passkey_added_on', { date: formatDateTime(p.created_at) })}
              {p.last_used_at ? ` · ${t('admin.security.passkey_last_used', { date: formatDateTime(p.last_used_at) })}` : ''}
            </div>
          </div>
          <div className="security-actions">
            <button type="button" className="btn btn-sm btn-outline" onClick={() => setEditing(p.name)} aria-label={t('admin.security.passkey_rename', { name: p.name })}>
              <Pencil size={16} aria-hidden="true" />
              {t('admin.security.rename')}
            </button>
            <button type="button" className="btn btn-sm btn-outline" onClick={() => void remove()} aria-label={t('admin.security.passkey_remove', { name: p.name })}>
              <Trash2 size={16} aria-hidden="true" />
              {t('admin.security.remove')}
            </button>
          </div>
        </>
      )}
    </li>
  );
}
