import { useEffect, useState } from 'react';
import { getJson } from '../../api/http';
import { Card } from './Card';
import { t } from './t';

type TableCount = { table: number; count: number };

/** The dashboard's photos per table (uploads from each table's QR sign), busiest first; nothing without tables. */
export function TableCounts() {
  const [tables, setTables] = useState<TableCount[]>([]);
  useEffect(() => {
    let live = true;
    getJson<{ tables: TableCount[] }>('/admin/api/wall/tables')
      .then((r) => live && setTables(r.tables))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  if (tables.length === 0) return null;
  return (
    <Card title={t('admin.dashboard.tables_title')}>
      <ul className="table-counts" data-testid="table-counts">
        {tables.map((x) => (
          <li key={x.table} data-table={x.table}>
            {t('admin.dashboard.table_count', { table: x.table, count: x.count })}
          </li>
        ))}
      </ul>
    </Card>
  );
}
