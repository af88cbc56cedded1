import type { ChallengeTotals } from '../../../common/admin-types';
import { formatNumber, t } from './t';

/** Each photo challenge in the couple's order with how many photos answer it, and how many of those are in the gallery. */
export function ChallengeCounts({ items }: { items: ChallengeTotals[] | undefined }) {
  if (!items?.length) return null;
  return (
    <section className="card" aria-labelledby="dash-challenges-title">
      <h2 id="dash-challenges-title" className="card-title">
        {t('admin.dashboard.challenges')}
      </h2>
      <table className="challenge-table">
        <thead>
          <tr>
            <th scope="col">{t('admin.dashboard.challenge_name')}</th>
            <th scope="col">{t('admin.dashboard.challenge_total')}</th>
            <th scope="col">{t('admin.dashboard.challenge_visible')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((c) => (
            <tr key={c.id} data-challenge={c.id}>
              <th scope="row" dir="auto">
                {c.title}
              </th>
              <td>{formatNumber(c.total)}</td>
              <td>{formatNumber(c.visible)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
