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
import { ErrorCard, ForbiddenCard } from '../../components/admin/AdminShell';
import { ColumnHeads } from '../../components/admin/ColumnHeads';
import { editPayload, roleName, UserFormModal } from '../../components/admin/UserFormModal';
import { formatDate, formatDay } from '../../components/admin/format';
import { t } from '../../components/admin/t';

export const deleteUserConfirm = (username: string) => t('admin.users.confirm_delete', { username });

function fail(err: unknown, fallback: string) {
  if (handleUnauthorized(err)) return;
  toast({ title: t('app.error'), description: errorText(err, fallback), variant: 'destructive' });
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
      setError(isForbidden(err) ? 'forbidden' : 'failed');
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs a change, says how it went and shows the list as it now is; true when it was made. */
  const change = async (run: () => Promise<unknown>, done: string, failed: string) => {
    try {
      await run();
      toast({ title: done, variant: 'success' });
      await load();
      return true;
    } catch (err) {
      fail(err, failed);
      return false;
    }
  };
  const create = (f: UserForm) => change(() => adminApi.createUser(f), t('admin.users.created'), t('admin.users.create_failed'));
  const update = (u: ApiUser) => (f: UserForm) => change(() => adminApi.updateUser(u.id, editPayload(f)), t('admin.users.updated'), t('admin.users.update_failed'));
  const remove = async (u: ApiUser) => {
    if (window.confirm(deleteUserConfirm(u.username))) await change(() => adminApi.deleteUser(u.id), t('admin.users.deleted'), t('admin.users.delete_failed'));
  };
  const toggle = async (u: ApiUser) => {
    try {
      const r = await adminApi.toggleActive(u.id);
      const active = r?.user ? r.user.is_active : !u.is_active;
      toast({ title: t('admin.users.status_updated'), description: t(active ? 'admin.users.activated' : 'admin.users.deactivated', { username: u.username }), variant: 'success' });
      await load();
    } catch (err) {
      fail(err, t('admin.users.status_failed'));
    }
  };

  if (error === 'forbidden') return <ForbiddenCard />;
  if (error) return <ErrorCard message={t('admin.users.load_failed')} onRetry={() => void load()} />;
  if (!users)
    return (
      <div role="status" aria-busy="true" aria-label={t('admin.users.loading')}>
        <div className="skeleton" style={{ height: '20rem' }} />
      </div>
    );

  const actions = (u: ApiUser) => (
    <div className="user-actions">
      <button type="button" className="btn btn-sm btn-outline" onClick={() => setModal({ kind: 'edit', user: u })} aria-label={t('admin.users.edit_label', { username: u.username })}>
        <Pencil size={16} aria-hidden="true" />
        {t('admin.users.edit')}
      </button>
      <button type="button" className="btn btn-sm btn-outline" onClick={() => void toggle(u)} aria-label={t(u.is_active ? 'admin.users.deactivate_label' : 'admin.users.activate_label', { username: u.username })}>
        {u.is_active ? <UserX size={16} aria-hidden="true" /> : <UserCheck size={16} aria-hidden="true" />}
        {u.is_active ? t('admin.users.deactivate') : t('admin.users.activate')}
      </button>
      <button type="button" className="btn btn-sm btn-danger" onClick={() => void remove(u)} aria-label={t('admin.users.delete_label', { username: u.username })}>
        <Trash2 size={16} aria-hidden="true" />
        {t('admin.users.delete')}
      </button>
    </div>
  );
  const role = (u: ApiUser) => <span className={`badge role-badge role-${u.role}`}>{roleName(u.role)}</span>;
  const status = (u: ApiUser) => (
    <span className={`badge ${u.is_active ? 'badge-visible' : 'badge-hidden'}`}>{u.is_active ? t('admin.users.active') : t('admin.users.inactive')}</span>
  );

  return (
    <div className="users-page">
      <div className="photos-head">
        <h1>{t('admin.users.title', { count: users.length })}</h1>
        <button type="button" className="btn" onClick={() => setModal({ kind: 'create' })}>
          <UserPlus size={18} aria-hidden="true" />
          {t('admin.users.create')}
        </button>
      </div>

      <div className="card users-table-wrap">
        <table className="users-table">
          <ColumnHeads
            names={[
              t('admin.users.username'),
              t('admin.users.full_name'),
              t('admin.users.email'),
              t('admin.users.role'),
              t('admin.users.status'),
              t('admin.users.created_column'),
              t('admin.users.last_login'),
              t('admin.users.actions'),
            ]}
          />
          <tbody>
            {users.map((u) => (
              <tr key={u.id} data-username={u.username}>
                <td>{u.username}</td>
                <td>{u.full_name}</td>
                <td>{u.email}</td>
                <td>{role(u)}</td>
                <td>{status(u)}</td>
                <td>{formatDay(u.created_at)}</td>
                <td>{u.last_login ? formatDate(u.last_login) : t('admin.users.never')}</td>
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
            <div className="muted">{t('admin.users.created_at', { when: formatDate(u.created_at) })}</div>
            <div className="muted">{t('admin.users.last_login_at', { when: u.last_login ? formatDate(u.last_login) : t('admin.users.never') })}</div>
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
