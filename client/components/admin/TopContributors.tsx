import type { UploaderCount } from '../../../common/api-types';

/** The guests who shared the most, by the name they gave (anonymous uploads are not counted here). */
export function TopContributors({ items }: { items: UploaderCount[] | undefined }) {
  if (!items?.length) return <p className="muted">No named guests yet</p>;
  return (
    <ol className="contributor-list" aria-label="Top contributors">
      {items.map((c) => (
        <li key={c.name}>
          <span className="contributor-name" title={c.name}>
            {c.name}
          </span>
          <span className="muted">
            {c.count} {c.count === 1 ? 'file' : 'files'}
          </span>
        </li>
      ))}
    </ol>
  );
}
