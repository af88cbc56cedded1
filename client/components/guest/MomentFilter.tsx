import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { fetchPhotos } from '../../api/guest';
import { t } from '../../i18n';
import { settings } from '../../state/settings';

/** A moment as the filter offers it: its title in the page's language, and the title photos are filed under. */
export interface Moment {
  label: string;
  value: string;
}

/** The schedule's moments (items with times) that have at least one visible photo (settings are loaded by the app). */
export function useMomentsWithPhotos(): Moment[] {
  useSignals();
  const [found, setFound] = useState<string[]>([]);
  const s = settings.value;
  const timed = (s?.schedule ?? []).filter((i) => i.starts_at && i.ends_at).map((i) => ({ label: i.title, value: i.moment ?? i.title }));
  const key = timed.map((m) => m.value).join('\n');
  useEffect(() => {
    let live = true;
    const list = key ? key.split('\n') : [];
    void Promise.all(list.map((m) => fetchPhotos(0, 1, m).then((r) => (r.success && r.pagination.total > 0 ? m : null)))).then((r) => {
      if (live) setFound(r.filter((m): m is string => m !== null));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return timed.filter((m) => found.includes(m.value));
}

/** "All" and one button per moment; the chosen one is pressed. */
export function MomentFilter({ moments, value, onChange }: { moments: Moment[]; value: string | null; onChange(m: string | null): void }) {
  if (!moments.length) return null;
  const choice = (label: string, m: string | null) => (
    <button key={m ?? ''} type="button" className={`btn btn-sm ${value === m ? '' : 'btn-outline'}`} aria-pressed={value === m} onClick={() => onChange(m)}>
      {label}
    </button>
  );
  return (
    <div className="moment-filter" role="group" aria-label={t('gallery.moments_label')}>
      {choice(t('gallery.moments_all'), null)}
      {moments.map((m) => choice(m.label, m.value))}
    </div>
  );
}
