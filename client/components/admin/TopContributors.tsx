import type { UploaderCount } from '../../../common/api-types';
import { t } from './t';

/** The guests who shared the most, by the name they gave (anonymous uploads are not counted here). */
export function TopContributors({ items }: { items: UploaderCount[] | undefined }) {
  if (!items?.length) return <p className="muted">{t('admin.contributors.empty')}</p>;
  return (
    <ol className="contributor-list" aria-label={t('admin.dashboard.contributors')}>
      {items.map((c) => (
        <li key={c.name}>
          <span className="contributor-name" title={c.name} dir="auto">
            {c.name}
          </span>
          <span className="muted">{t('admin.contributors.files', { count: c.count })}</span>
        </li>
      ))}
    </ol>
  );
}
