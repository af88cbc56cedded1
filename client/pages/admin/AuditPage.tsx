import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { AuditResponse } from '../../../common/security-types';
import { isForbidden } from '../../api/admin';
import { securityApi } from '../../api/security';
import { handleUnauthorized } from '../../state/admin';
import { ErrorCard, ForbiddenCard } from '../../components/admin/AdminShell';
import { ColumnHeads } from '../../components/admin/ColumnHeads';
import { Field, InputField } from '../../components/admin/Field';
import { formatDateTime, formatNumber, t } from '../../components/admin/t';

const PAGE = 50;

/** /admin/audit: who did what, when and from where (role admin only), filtered by user and action. */
export function AuditPage() {
  const [data, setData] = useState<AuditResponse | null>(null);
  const [error, setError] = useState<'forbidden' | 'failed' | null>(null);
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState({ user: '', action: '' });
  const [userInput, setUserInput] = useState('');

  const load = useCallback(async () => {
    try {
      setData(await securityApi.audit({ limit: PAGE, offset, ...filter }));
      setError(null);
    } catch (err) {
      if (handleUnauthorized(err)) return;
      setError(isForbidden(err) ? 'forbidden' : 'failed');
    }
  }, [offset, filter]);
  useEffect(() => {
    void load();
  }, [load]);

  if (error === 'forbidden') return <ForbiddenCard />;
  if (error) return <ErrorCard message={t('admin.audit.load_failed')} onRetry={() => void load()} />;

  const applyUser = (e: FormEvent) => {
    e.preventDefault();
    setOffset(0);
    setFilter({ ...filter, user: userInput.trim() });
  };
  const total = data?.pagination.total ?? 0;

  return (
    <div className="audit-page">
      <h1>{t('admin.audit.title')}</h1>
      <p className="muted">{t('admin.audit.intro')}</p>
      <div className="card audit-filters">
        <form className="settings-row" onSubmit={applyUser}>
          <InputField id="audit-user" label={t('admin.audit.filter_user')} type="search" value={userInput} onValue={setUserInput} />
          <button type="submit" className="btn btn-outline">
            {t('admin.audit.apply')}
          </button>
        </form>
        <Field id="audit-action" label={t('admin.audit.filter_action')}>
          <select
            id="audit-action"
            value={filter.action}
            onChange={(e) => {
              setOffset(0);
              setFilter({ ...filter, action: e.target.value });
            }}
          >
            <option value="">{t('admin.audit.all_actions')}</option>
            {(data?.actions ?? []).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {!data ? (
        <div className="skeleton" style={{ height: '18rem' }} role="status" aria-busy="true" aria-label={t('admin.audit.loading')} />
      ) : data.entries.length === 0 ? (
        <p className="card">{t('admin.audit.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="audit-table">
            <ColumnHeads names={[t('admin.audit.when'), t('admin.audit.who'), t('admin.audit.action'), t('admin.audit.ids'), t('admin.audit.address')]} />
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id}>
                  <td>{formatDateTime(e.at)}</td>
                  <td dir="auto">{e.username ?? '—'}</td>
                  <td>
                    <code>{e.action}</code>
                    {e.detail && <div className="muted audit-detail">{JSON.stringify(e.detail)}</div>}
                  </td>
                  <td className="audit-ids">{e.ids.join(', ')}</td>
                  <td>{e.address ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="audit-paging" aria-label={t('admin.audit.paging')}>
        <button type="button" className="btn btn-outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
          {t('admin.audit.newer')}
        </button>
        <span className="muted" data-testid="audit-range">
          {t('admin.audit.range', { from: formatNumber(total ? offset + 1 : 0), to: formatNumber(Math.min(offset + PAGE, total)), total: formatNumber(total) })}
        </span>
        <button type="button" className="btn btn-outline" disabled={!data?.pagination.has_more} onClick={() => setOffset(offset + PAGE)}>
          {t('admin.audit.older')}
        </button>
      </nav>
    </div>
  );
}
