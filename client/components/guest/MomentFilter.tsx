import { useSignals } from '@preact/signals-react/runtime';
import Trophy from 'lucide-react/icons/trophy';
import { useEffect, useState } from 'react';
import { fetchPhotos, fetchStats } from '../../api/guest';
import { getJson } from '../../api/http';
import { t } from '../../i18n';
import { settings } from '../../state/settings';

/** A choice the filter offers: its label, and how the address asks for its photos (`moment=...`). */
export interface Choice {
  label: string;
  value: string;
  /** A photo challenge of the couple's (shown with a trophy, its description as the tooltip). */
  challenge?: { description: string };
}

/**
 * "Most loved", then the couple's highlights and the schedule's moments (items with times, their
 * title in the page's language) when they have at least one visible photo, then the photo
 * challenges that have photos (one stats request counts them all). Settings are loaded by the app.
 */
export function useGalleryChoices(): Choice[] {
  useSignals();
  const [found, setFound] = useState<string[]>([]);
  const [challenges, setChallenges] = useState<Choice[]>([]);
  const [tables, setTables] = useState<Choice[]>([]);
  const tableCount = settings.value?.tables ?? 0;
  // Tables with photos (uploads from their QR signs), in their order.
  useEffect(() => {
    if (!tableCount) return setTables([]);
    let live = true;
    void getJson<{ tables: { table: number; count: number }[] }>('/api/wall/tables')
      .then((r) => live && setTables(r.tables.map((x) => x.table).sort((a, b) => a - b).map((n) => ({ label: t('gallery.table', { table: n }), value: `table=${n}` }))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [tableCount]);
  const challengeKey = (settings.value?.challenges ?? []).map((c) => c.id).join(' ');
  useEffect(() => {
    if (!challengeKey) {
      setChallenges([]);
      return;
    }
    let live = true;
    void fetchStats().then((s) => {
      if (!live) return;
      const withPhotos = s.challenges.filter((c) => c.count > 0);
      setChallenges(withPhotos.map((c) => ({ label: c.title, value: 'challenge=' + encodeURIComponent(c.id), challenge: { description: c.description } })));
    });
    return () => {
      live = false;
    };
  }, [challengeKey]);
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
  return [{ label: t('gallery.most_loved'), value: 'sort=loved' }, ...probed.filter((m) => found.includes(m.value)), ...challenges, ...tables];
}

/** "All" and one button per choice; the chosen one is pressed. */
export function MomentFilter({ choices, value, onChange }: { choices: Choice[]; value: string | null; onChange(m: string | null): void }) {
  if (!choices.length) return null;
  const choice = (label: string, m: string | null, challenge?: Choice['challenge']) => (
    <button
      key={m ?? ''}
      type="button"
      className={`btn btn-sm ${value === m ? '' : 'btn-outline'}`}
      aria-pressed={value === m}
      title={challenge?.description || undefined}
      onClick={() => onChange(m)}
    >
      {challenge && <Trophy aria-hidden="true" size={14} />}
      <span dir="auto">{label}</span>
    </button>
  );
  return (
    <div className="moment-filter" role="group" aria-label={t('gallery.moments_label')}>
      {choice(t('gallery.moments_all'), null)}
      {choices.map((m) => choice(m.label, m.value, m.challenge))}
    </div>
  );
}
