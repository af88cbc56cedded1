import { useEffect, useState } from 'react';
import { getJson } from '../../api/http';
import { t } from './t';

type TableCount = { table: number; count: number };

/**
 * Now and then (every `everyMs`, when the couple set tables): the three tables whose guests shared
 * the most, up for `showMs` over whatever the wall shows. Nothing when no table has photos yet.
 */
export function useBusiestTables(enabled: boolean, everyMs: number, showMs: number): TableCount[] | null {
  const [shown, setShown] = useState<TableCount[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    let hide: ReturnType<typeof setTimeout> | undefined;
    const timer = setInterval(() => {
      getJson<{ tables: TableCount[] }>('/api/wall/tables')
        .then((r) => {
          if (!live || r.tables.length === 0) return;
          setShown(r.tables.slice(0, 3));
          clearTimeout(hide);
          hide = setTimeout(() => live && setShown(null), showMs);
        })
        .catch(() => undefined);
    }, everyMs);
    return () => {
      live = false;
      clearInterval(timer);
      clearTimeout(hide);
      setShown(null);
    };
  }, [enabled, everyMs, showMs]);
  return shown;
}

/** The slide: "The busiest tables", each with how many photos and videos its guests shared. */
export function BusiestTables({ tables }: { tables: TableCount[] }) {
  return (
    <section className="wall-tables" data-testid="wall-tables" aria-labelledby="wall-tables-title">
      <h2 id="wall-tables-title">{t('wall.tables_title')}</h2>
      <ol>
        {tables.map((x) => (
          <li key={x.table} data-table={x.table}>
            <span className="wall-tables-name">{t('wall.table', { table: x.table })}</span>
            <span className="wall-tables-count">{t('wall.table_photos', { count: x.count })}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
