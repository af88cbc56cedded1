import type { ApiUser, Role, UserForm } from '../../../common/api-types';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import X from 'lucide-react/icons/x';
import { CheckboxRow, Field, InputField } from './Field';
import { t } from './t';

const ROLE_NAMES: Record<Role, string> = { family: 'admin.role.family', bride: 'admin.role.bride', groom: 'admin.role.groom', admin: 'admin.role.admin' };
export const ROLES: Role[] = ['family', 'bride', 'groom', 'admin'];
/** SPEC §5: Family, Bride, Groom, Admin in the page's language. */
export const roleName = (role: Role): string => (ROLE_NAMES[role] ? t(ROLE_NAMES[role]) : role);

/** SPEC §3 "User form": role family and active by default. */
export const emptyUserForm = (): UserForm => ({ username: '', email: '', full_name: '', role: 'family', is_active: true, password: '' });

/** SPEC §5: on edit a blank password keeps the current one and is not sent. */
export function editPayload(f: UserForm): Partial<UserForm> {
  const { password, ...rest } = f;
  return password.trim() === '' ? rest : { ...rest, password };
}

interface Props {
  user: ApiUser | null; // null: create
  onClose: () => void;
  onSubmit: (form: UserForm) => Promise<boolean>;
}

/** The create and edit modals of /admin/users. */
export function UserFormModal({ user, onClose, onSubmit }: Props) {
  const [form, setForm] = useState<UserForm>(() =>
    user ? { username: user.username, email: user.email, full_name: user.full_name, role: user.role, is_active: user.is_active, password: '' } : emptyUserForm(),
  );
  const [saving, setSaving] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  const title = user ? t('admin.users.edit_title') : t('admin.users.create');

  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    first.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  const set = <K extends keyof UserForm>(k: K, v: UserForm[K]) => setForm((f) => ({ ...f, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSaving(true);
    const ok = await onSubmit(form);
    setSaving(false);
    if (ok) onClose();
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="modal card" role="dialog" aria-modal="true" aria-labelledby="user-modal-title">
        <div className="modal-head">
          <h2 id="user-modal-title">{title}</h2>
          <button type="button" className="btn btn-ghost btn-icon" aria-label={t('admin.close')} onClick={onClose}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <form onSubmit={submit} className="admin-form">
          <InputField ref={first} id="uf-username" label={t('admin.users.username')} type="text" required autoComplete="off" value={form.username} onValue={(v) => set('username', v)} />
          <InputField id="uf-full-name" label={t('admin.users.full_name')} type="text" required value={form.full_name} onValue={(v) => set('full_name', v)} />
          <InputField id="uf-email" label={t('admin.users.email')} type="email" required value={form.email} onValue={(v) => set('email', v)} />
          <InputField
            id="uf-password"
            label={user ? t('admin.users.password_keep') : t('admin.users.password')}
            type="password"
            autoComplete="new-password"
            required={!user}
            value={form.password}
            onValue={(v) => set('password', v)}
          />
          <Field id="uf-role" label={t('admin.users.role')}>
            <select id="uf-role" value={form.role} onChange={(e) => set('role', e.target.value as Role)}>
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleName(r)}
                </option>
              ))}
            </select>
          </Field>
          <CheckboxRow label={t('admin.users.active')} checked={form.is_active} onChange={(e) => set('is_active', e.target.checked)} />
          <div className="modal-actions">
            <button type="button" className="btn btn-outline" onClick={onClose}>
              {t('admin.cancel')}
            </button>
            <button type="submit" className="btn" disabled={saving}>
              {user ? t('admin.users.save') : t('admin.users.create_submit')}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
