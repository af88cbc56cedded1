import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import type { AdminGuestbookEntry } from '../../../common/api-types';
import { adminApi, errorText } from '../../api/admin';
import { formatDateTime, t } from '../../components/admin/t';
import { toast } from '../../components/ui/toast';
import { handleUnauthorized, me, permissionsOf } from '../../state/admin';

type Filter = 'pending' | 'visible' | 'all';
const FILTERS: Filter[] = ['pending', 'visible', 'all'];
const FILTER_LABEL = { pending: 'admin.guestbook.filter.pending', visible: 'admin.guestbook.filter.visible', all: 'admin.guestbook.filter.all' } as const;

/** /admin/guestbook: the guests' messages to approve, hide or delete, voice notes to listen to. */
export function GuestbookAdminPage() {
  useSignals();
  const perms = permissionsOf(me.value);
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const [entries, setEntries] = useState<AdminGuestbookEntry[]>([]);
  const [pages, setPages] = useState(1);
  const [pending, setPending] = useState(0);
  const [busy, setBusy] = useState<string | null>(null);

  const load = () =>
    adminApi.guestbook(filter, page).then(
      (r) => {
        setEntries(r.entries);
        setPages(Math.max(1, r.pagination.pages));
        setPending(r.pending);
      },
      (err) => handleUnauthorized(err) || toast({ title: errorText(err, t('admin.guestbook.load_failed')), variant: 'destructive' }),
    );
  useEffect(() => void load(), [filter, page]);

  async function act(e: AdminGuestbookEntry, action: 'approve' | 'hide' | 'delete') {
    if (action === 'delete' && !window.confirm(t('admin.guestbook.confirm_delete'))) return;
    setBusy(e.id);
    try {
      if (action === 'delete') await adminApi.deleteMessage(e.id);
      else await adminApi.guestbookAction(e.id, action);
      await load();
    } catch (err) {
      if (!handleUnauthorized(err)) toast({ title: errorText(err, t('admin.guestbook.action_failed')), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="admin-page guestbook-admin">
      <h1>{t('admin.guestbook.title')}</h1>
      <p className="muted">{t('admin.guestbook.pending', { count: pending })}</p>
      <div className="segmented" role="group" aria-label={t('admin.guestbook.filter.label')}>
        {FILTERS.map((f) => (
          <button key={f} type="button" className={`btn btn-sm ${f === filter ? '' : 'btn-outline'}`} aria-pressed={f === filter} onClick={() => (setFilter(f), setPage(1))}>
            {t(FILTER_LABEL[f])}
          </button>
        ))}
      </div>
      {entries.length === 0 && <p className="muted">{t('admin.guestbook.empty')}</p>}
      <ul className="guestbook-list">
        {entries.map((e) => (
          <li key={e.id} className="card guestbook-entry" data-entry-id={e.id}>
            <p className="guestbook-text" dir="auto">
              {e.message}
            </p>
            <p className="guestbook-by muted">
              <span dir="auto">{e.name ?? t('admin.guestbook.anonymous')}</span> · {formatDateTime(e.created_at)} ·{' '}
              <span className={`badge ${e.is_visible ? 'badge-visible' : 'badge-hidden'}`}>{e.is_visible ? t('admin.guestbook.visible') : t('admin.guestbook.hidden')}</span>
            </p>
            {e.audio_url && <audio controls preload="none" src={e.audio_url} aria-label={t('admin.guestbook.voice_note')} />}
            {e.audio_status === 'processing' && <p className="muted">{t('admin.guestbook.voice_processing')}</p>}
            {e.audio_status === 'error' && <p className="badge badge-error">{t('admin.guestbook.voice_error')}</p>}
            <p className="guestbook-mine">
              {e.is_visible ? (
                <button type="button" className="btn btn-outline btn-sm" disabled={busy === e.id} onClick={() => void act(e, 'hide')}>
                  {t('admin.guestbook.hide')}
                </button>
              ) : (
                <button type="button" className="btn btn-sm" disabled={busy === e.id} onClick={() => void act(e, 'approve')}>
                  {t('admin.guestbook.approve')}
                </button>
              )}
              {perms.can_manage_users && (
                <button type="button" className="btn btn-danger btn-sm" disabled={busy === e.id} onClick={() => void act(e, 'delete')}>
                  {t('admin.guestbook.delete')}
                </button>
              )}
            </p>
          </li>
        ))}
      </ul>
      {pages > 1 && (
        <nav className="guestbook-mine" aria-label={t('admin.guestbook.pages')}>
          <button type="button" className="btn btn-outline btn-sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            {t('admin.guestbook.previous')}
          </button>
          <span>{t('admin.guestbook.page', { page, pages })}</span>
          <button type="button" className="btn btn-outline btn-sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            {t('admin.guestbook.next')}
          </button>
        </nav>
      )}
    </div>
  );
}
