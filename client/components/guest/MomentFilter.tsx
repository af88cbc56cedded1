import { useSignals } from '@preact/signals-react/runtime';
import { useEffect, useState } from 'react';
import { fetchPhotos } from '../../api/guest';
import { t } from '../../i18n';
import { settings } from '../../state/settings';

/** A choice the filter offers: its label, and how the address asks for its photos (`moment=...`). */
export interface Choice {
  label: string;
  value: string;
}

/**
 * "Most loved", then the couple's highlights and the schedule's moments (items with times, their
 * title in the page's language) when they have at least one visible photo. Settings are loaded by the app.
 */
export function useGalleryChoices(): Choice[] {
  useSignals();
  const [found, setFound] = useState<string[]>([]);
  const moments = (settings.value?.schedule ?? []).filter((i) => i.starts_at && i.ends_at);
  const probed = [
    { label: t('gallery.highlights'), value: 'highlights=true' },
    ...moments.map((i) => ({ label: i.title, value: 'moment=' + encodeURIComponent(i.moment ?? i.title) })),
  ];
  const key = probed.map((m) => m.value).join(' ');
  useEffect(() => {
    let live = true;
    void Promise.all(key.split(' ').map((m) => fetchPhotos(0, 1, m).then((r) => (r.pagination.total > 0 ? m : '')))).then((r) => {
      if (live) setFound(r);
    });
    return () => {
      live = false;
    };
  }, [key]);
  return [{ label: t('gallery.most_loved'), value: 'sort=loved' }, ...probed.filter((m) => found.includes(m.value))];
}

/** "All" and one button per choice; the chosen one is pressed. */
export function MomentFilter({ choices, value, onChange }: { choices: Choice[]; value: string | null; onChange(m: string | null): void }) {
  if (!choices.length) return null;
  const choice = (label: string, m: string | null) => (
    <button key={m ?? ''} type="button" className={`btn btn-sm ${value === m ? '' : 'btn-outline'}`} aria-pressed={value === m} onClick={() => onChange(m)}>
      {label}
    </button>
  );
  return (
    <div className="moment-filter" role="group" aria-label={t('gallery.moments_label')}>
      {choice(t('gallery.moments_all'), null)}
      {choices.map((m) => choice(m.label, m.value))}
    </div>
  );
}
