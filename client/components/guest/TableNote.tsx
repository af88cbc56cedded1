import { useSignals } from '@preact/signals-react/runtime';
import { useMemo } from 'react';
import { t } from '../../i18n';
import { settings } from '../../state/settings';
import { setUploadTable, TABLE_KEY } from '../../uploads/table';

/** `search`: the page's query; `tables`: how many tables the couple set (a number beyond is ignored). */
export function chooseUploadTable(search: string, tables: number): number | null {
  const asked = new URLSearchParams(search).get('table');
  let kept: string | null = null;
  try {
    kept = sessionStorage.getItem(TABLE_KEY);
  } catch {
    /* storage refused: the query alone */
  }
  const raw = asked ?? kept;
  const n = raw && /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  const table = n >= 1 && n <= tables ? n : null;
  setUploadTable(table);
  try {
    if (table) sessionStorage.setItem(TABLE_KEY, String(table));
    else if (asked !== null) sessionStorage.removeItem(TABLE_KEY);
  } catch {
    /* not kept: this visit only */
  }
  return table;
}

/** On /live?table=7: the photos sent from this page are marked as from that table, and the page says so. */
export function TableNote() {
  useSignals();
  const tables = settings.value?.tables ?? 0;
  const table = useMemo(() => (settings.value ? chooseUploadTable(window.location.search, tables) : null), [tables, !!settings.value]);
  if (!table) return null;
  return (
    <p className="live-table" data-testid="live-table">
      {t('live.table', { table })}
    </p>
  );
}
