import type { ScheduleItem } from '../../../common/api-types';
import { joinInZone, splitInZone } from '../zoned-time';
import { t } from './t';

interface Props {
  index: number;
  item: ScheduleItem;
  zone: string;
  onChange(patch: Pick<ScheduleItem, 'starts_at' | 'ends_at'>): void;
}

/**
 * A schedule item's start and end as date and time pickers in the wedding's time zone, kept as
 * ISO 8601 with that zone's offset. A date without a time means midnight.
 */
export function MomentTimes({ index, item, zone, onChange }: Props) {
  const start = splitInZone(item.starts_at, zone);
  const end = splitInZone(item.ends_at, zone);
  const set = (which: 'start' | 'end', part: 'date' | 'time', v: string) => {
    const s = which === 'start' ? { ...start, [part]: v } : start;
    const e = which === 'end' ? { ...end, [part]: v } : end;
    // A start date given first fills the end date too: most moments end the day they begin.
    if (which === 'start' && part === 'date' && !e.date) e.date = v;
    onChange({ starts_at: joinInZone(s.date, s.time || '00:00', zone), ends_at: joinInZone(e.date, e.time || '00:00', zone) });
  };
  const id = (k: string) => `st-${index}-${k}`;
  return (
    <fieldset className="field field-wide settings-inline">
      <legend>{t('admin.moment.title')}</legend>
      <label htmlFor={id('start-date')}>{t('admin.moment.starts')}</label>
      <input id={id('start-date')} type="date" value={start.date} onChange={(e) => set('start', 'date', e.target.value)} />
      <input id={id('start-time')} type="time" aria-label={t('admin.moment.start_time', { number: index + 1 })} value={start.time} onChange={(e) => set('start', 'time', e.target.value)} />
      <label htmlFor={id('end-date')}>{t('admin.moment.ends')}</label>
      <input id={id('end-date')} type="date" value={end.date} onChange={(e) => set('end', 'date', e.target.value)} />
      <input id={id('end-time')} type="time" aria-label={t('admin.moment.end_time', { number: index + 1 })} value={end.time} onChange={(e) => set('end', 'time', e.target.value)} />
      {(item.starts_at || item.ends_at) && (
        <button type="button" className="btn btn-sm btn-outline" onClick={() => onChange({ starts_at: null, ends_at: null })}>
          {t('admin.moment.clear')}
        </button>
      )}
      <p className="muted settings-hint">{t('admin.moment.hint')}</p>
    </fieldset>
  );
}
