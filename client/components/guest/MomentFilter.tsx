import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { fetchPhotos } from '../../api/guest';
import { settings } from '../../state/settings';

/** The titles of the schedule's moments (items with times) that have at least one visible photo (settings are loaded by the app). */
export function useMomentsWithPhotos(): string[] {
  useSignals();
  const [found, setFound] = useState<string[]>([]);
  const s = settings.value;
  const titles = (s?.schedule ?? []).filter((i) => i.starts_at && i.ends_at).map((i) => i.title);
  const key = titles.join('\n');
  useEffect(() => {
    let live = true;
    const list = key ? key.split('\n') : [];
    void Promise.all(list.map((t) => fetchPhotos(0, 1, t).then((r) => (r.success && r.pagination.total > 0 ? t : null)))).then((r) => {
      if (live) setFound(r.filter((t): t is string => t !== null));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return found;
}

/** "All" and one button per moment; the chosen one is pressed. */
export function MomentFilter({ moments, value, onChange }: { moments: string[]; value: string | null; onChange(m: string | null): void }) {
  if (!moments.length) return null;
  const choice = (label: string, m: string | null) => (
    <button key={label} type="button" className={`btn btn-sm ${value === m ? '' : 'btn-outline'}`} aria-pressed={value === m} onClick={() => onChange(m)}>
      {label}
    </button>
  );
  return (
    <div className="moment-filter" role="group" aria-label="Show photos from">
      {choice('All', null)}
      {moments.map((m) => choice(m, m))}
    </div>
  );
}
