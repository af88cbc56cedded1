import { useEffect, useState } from 'react';
import { deleteJson, getJson } from '../../api/http';
import { Card } from './Card';
import { formatDate } from './format';
import { t } from './t';

type Booth = { id: string; created_at: string; created_by_name: string | null; last_used_at: string | null; revoked: boolean };

/** The dashboard's photo booths (tablets opened at /booth), each revocable; a link to open one on this device. */
export function BoothsCard() {
  const [booths, setBooths] = useState<Booth[]>([]);
  const load = () =>
    getJson<{ booths: Booth[] }>('/admin/api/booths')
      .then((r) => setBooths(r.booths))
      .catch(() => undefined);
  useEffect(() => void load(), []);
  const revoke = async (id: string) => {
    await deleteJson(`/admin/api/booths/${encodeURIComponent(id)}`).catch(() => undefined);
    await load();
  };
  return (
    <Card title={t('admin.booth.title')}>
      <ul className="booth-list" data-testid="booths">
        {booths.map((b) => (
          <li key={b.id} data-booth={b.id}>
            <span>
              {t('admin.booth.opened_by', { name: b.created_by_name ?? '?' })} · <time dateTime={b.created_at}>{formatDate(b.created_at)}</time>
            </span>{' '}
            {b.revoked ? (
              <span className="muted">{t('admin.booth.revoked')}</span>
            ) : (
              <button type="button" className="btn btn-sm btn-outline" onClick={() => void revoke(b.id)} aria-label={t('admin.booth.revoke_label', { name: b.created_by_name ?? '?' })}>
                {t('admin.booth.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <a href="/booth" className="btn btn-sm btn-outline">
        {t('admin.booth.open')}
      </a>
    </Card>
  );
}
