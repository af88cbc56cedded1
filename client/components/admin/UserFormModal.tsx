import type { ApiUser, Role, UserForm } from '../../../common/api-types';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import X from 'lucide-react/icons/x';

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'family', label: 'Family' },
  { value: 'bride', label: 'Bride' },
  { value: 'groom', label: 'Groom' },
  { value: 'admin', label: 'Admin' },
];

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
  const title = user ? 'Edit User' : 'Create New User';

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
          <button type="button" className="btn btn-ghost btn-icon" aria-label="Close" onClick={onClose}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <form onSubmit={submit} className="admin-form">
          <div className="field">
            <label htmlFor="uf-username">Username</label>
            <input ref={first} id="uf-username" type="text" required autoComplete="off" value={form.username} onChange={(e) => set('username', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="uf-full-name">Full Name</label>
            <input id="uf-full-name" type="text" required value={form.full_name} onChange={(e) => set('full_name', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="uf-email">Email</label>
            <input id="uf-email" type="email" required value={form.email} onChange={(e) => set('email', e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="uf-password">{user ? 'Password (leave blank to keep the current one)' : 'Password'}</label>
            <input
              id="uf-password"
              type="password"
              autoComplete="new-password"
              required={!user}
              value={form.password}
              onChange={(e) => set('password', e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor="uf-role">Role</label>
            <select id="uf-role" value={form.role} onChange={(e) => set('role', e.target.value as Role)}>
              {ROLE_OPTIONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <label className="checkbox-row">
            <input type="checkbox" checked={form.is_active} onChange={(e) => set('is_active', e.target.checked)} />
            Active
          </label>
          <div className="modal-actions">
            <button type="button" className="btn btn-outline" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn" disabled={saving}>
              {user ? 'Save Changes' : 'Create User'}
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
