import { useCallback, useEffect, useState } from 'react';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash-2';
import UserPlus from 'lucide-react/icons/user-plus';
import UserCheck from 'lucide-react/icons/user-check';
import UserX from 'lucide-react/icons/user-x';
import type { ApiUser, UserForm } from '../../../common/api-types';
import { adminApi, errorText, isForbidden } from '../../api/admin';
import { handleUnauthorized } from '../../state/admin';
import { toast } from '../../components/ui/toast';
import { ErrorCard } from '../../components/admin/AdminShell';
import { editPayload, UserFormModal } from '../../components/admin/UserFormModal';
import { formatDate, formatDay } from '../../components/admin/format';

export const FORBIDDEN_TEXT = 'Insufficient permissions. Admin role required.';
export const deleteUserConfirm = (username: string) => `Are you sure you want to delete user "${username}"? This action cannot be undone.`;

function fail(err: unknown, fallback: string) {
  if (handleUnauthorized(err)) return;
  toast({ title: 'Error', description: errorText(err, fallback), variant: 'destructive' });
}

type Modal = { kind: 'create' } | { kind: 'edit'; user: ApiUser } | null;

/** /admin/users (SPEC §2): table on large screens, cards on small ones, create/edit modals. */
export function UsersPage() {
  const [users, setUsers] = useState<ApiUser[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [modal, setModal] = useState<Modal>(null);

  const load = useCallback(async () => {
    try {
      const r = await adminApi.users();
      setUsers(r.users);
      setError(null);
    } catch (err) {
      if (handleUnauthorized(err)) return;
      setError(isForbidden(err) ? FORBIDDEN_TEXT : 'Failed to load users');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const create = async (f: UserForm) => {
    try {
      await adminApi.createUser(f);
      toast({ title: 'User created', variant: 'success' });
      await load();
      return true;
    } catch (err) {
      fail(err, 'Failed to create user');
      return false;
    }
  };
  const update = (u: ApiUser) => async (f: UserForm) => {
    try {
      await adminApi.updateUser(u.id, editPayload(f));
      toast({ title: 'User updated', variant: 'success' });
      await load();
      return true;
    } catch (err) {
      fail(err, 'Failed to update user');
      return false;
    }
  };
  const remove = async (u: ApiUser) => {
    if (!window.confirm(deleteUserConfirm(u.username))) return;
    try {
      await adminApi.deleteUser(u.id);
      toast({ title: 'User deleted', variant: 'success' });
      await load();
    } catch (err) {
      fail(err, 'Failed to delete user');
    }
  };
  const toggle = async (u: ApiUser) => {
    try {
      const r = await adminApi.toggleActive(u.id);
      const active = r?.user ? r.user.is_active : !u.is_active;
      toast({ title: 'User status updated', description: `${u.username} ${active ? 'activated' : 'deactivated'}`, variant: 'success' });
      await load();
    } catch (err) {
      fail(err, 'Failed to update user status');
    }
  };

  if (error === FORBIDDEN_TEXT)
    return (
      <div className="card admin-error-card" role="alert">
        <p>{FORBIDDEN_TEXT}</p>
      </div>
    );
  if (error) return <ErrorCard message={error} onRetry={() => void load()} />;
  if (!users)
    return (
      <div role="status" aria-busy="true" aria-label="Loading users">
        <div className="skeleton" style={{ height: '20rem' }} />
      </div>
    );

  const actions = (u: ApiUser) => (
    <div className="user-actions">
      <button type="button" className="btn btn-sm btn-outline" onClick={() => setModal({ kind: 'edit', user: u })} aria-label={`Edit ${u.username}`}>
        <Pencil size={16} aria-hidden="true" />
        Edit
      </button>
      <button type="button" className="btn btn-sm btn-outline" onClick={() => void toggle(u)} aria-label={`${u.is_active ? 'Deactivate' : 'Activate'} ${u.username}`}>
        {u.is_active ? <UserX size={16} aria-hidden="true" /> : <UserCheck size={16} aria-hidden="true" />}
        {u.is_active ? 'Deactivate' : 'Activate'}
      </button>
      <button type="button" className="btn btn-sm btn-danger" onClick={() => void remove(u)} aria-label={`Delete ${u.username}`}>
        <Trash2 size={16} aria-hidden="true" />
        Delete
      </button>
    </div>
  );
  const role = (u: ApiUser) => <span className={`badge role-badge role-${u.role}`}>{u.role}</span>;
  const status = (u: ApiUser) => <span className={`badge ${u.is_active ? 'badge-visible' : 'badge-hidden'}`}>{u.is_active ? 'Active' : 'Inactive'}</span>;

  return (
    <div className="users-page">
      <div className="photos-head">
        <h1>Users ({users.length})</h1>
        <button type="button" className="btn" onClick={() => setModal({ kind: 'create' })}>
          <UserPlus size={18} aria-hidden="true" />
          Create New User
        </button>
      </div>

      <div className="card users-table-wrap">
        <table className="users-table">
          <thead>
            <tr>
              <th>Username</th>
              <th>Full Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>Status</th>
              <th>Created</th>
              <th>Last Login</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-username={u.username}>
                <td>{u.username}</td>
                <td>{u.full_name}</td>
                <td>{u.email}</td>
                <td>{role(u)}</td>
                <td>{status(u)}</td>
                <td>{formatDay(u.created_at)}</td>
                <td>{u.last_login ? formatDate(u.last_login) : 'Never'}</td>
                <td>{actions(u)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <div className="users-cards">
        {users.map((u) => (
          <div key={u.id} className="card user-card" data-username={u.username}>
            <div className="user-card-head">
              <strong>{u.username}</strong> {role(u)} {status(u)}
            </div>
            <div>{u.full_name}</div>
            <div className="muted">{u.email}</div>
            <div className="muted">Created: {formatDate(u.created_at)}</div>
            <div className="muted">Last login: {u.last_login ? formatDate(u.last_login) : 'Never'}</div>
            {actions(u)}
          </div>
        ))}
      </div>

      {modal && (
        <UserFormModal
          key={modal.kind === 'edit' ? modal.user.id : 'new'}
          user={modal.kind === 'edit' ? modal.user : null}
          onClose={() => setModal(null)}
          onSubmit={modal.kind === 'edit' ? update(modal.user) : create}
        />
      )}
    </div>
  );
}
