import type { ChallengeTotals } from '../../../common/admin-types';
import { Card } from './Card';
import { ColumnHeads } from './ColumnHeads';
import { formatNumber, t } from './t';

/** Each photo challenge in the couple's order with how many photos answer it, and how many of those are in the gallery. */
export function ChallengeCounts({ items }: { items: ChallengeTotals[] | undefined }) {
  if (!items?.length) return null;
  return (
    <Card titleId="dash-challenges-title" title={t('admin.dashboard.challenges')}>
      <table className="challenge-table">
        <ColumnHeads names={[t('admin.dashboard.challenge_name'), t('admin.dashboard.challenge_total'), t('admin.dashboard.challenge_visible')]} />
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
    </Card>
  );
}
