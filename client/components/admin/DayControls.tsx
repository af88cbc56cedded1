import type { Moderation, WeddingSettings } from '../../../common/api-types';
import { joinInZone, splitInZone } from '../zoned-time';
import { Card } from './Card';
import { CheckboxRow, Field } from './Field';
import { t } from './t';

type Controls = Pick<WeddingSettings, 'moderation' | 'gallery_opens_at' | 'wall_paused' | 'time_zone'> & Partial<Pick<WeddingSettings, 'tables'>>;

interface Props {
  value: Controls;
  onChange(patch: Partial<Controls>): void;
}

/** Zone names the browser knows, for the time zone field's suggestions. */
function zoneNames(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

/** The settings page's "On the day" section: approval, the gallery's reveal, the wall, the time zone. */
export function DayControls({ value, onChange }: Props) {
  const opens = splitInZone(value.gallery_opens_at, value.time_zone);
  const setOpens = (date: string, time: string) => onChange({ gallery_opens_at: date ? joinInZone(date, time || '00:00', value.time_zone) : null });
  return (
    <Card className="settings-section" titleId="st-day-title" title={t('admin.day.title')}>
      <Field id="st-moderation" label={t('admin.day.moderation')} hint={t('admin.day.moderation_hint')}>
        <select id="st-moderation" value={value.moderation} onChange={(e) => onChange({ moderation: e.target.value as Moderation })}>
          <option value="manual">{t('admin.day.manual')}</option>
          <option value="auto">{t('admin.day.auto')}</option>
        </select>
      </Field>

      <fieldset className="field settings-inline">
        <legend>{t('admin.day.opens')}</legend>
        <label htmlFor="st-opens-date">{t('admin.day.date')}</label>
        <input id="st-opens-date" type="date" value={opens.date} onChange={(e) => setOpens(e.target.value, opens.time)} />
        <label htmlFor="st-opens-time">{t('admin.day.time')}</label>
        <input id="st-opens-time" type="time" value={opens.time} disabled={!opens.date} onChange={(e) => setOpens(opens.date, e.target.value)} />
        {value.gallery_opens_at && (
          <button type="button" className="btn btn-sm btn-outline" onClick={() => onChange({ gallery_opens_at: null })}>
            {t('admin.day.open_now')}
          </button>
        )}
        <p className="muted settings-hint">{t('admin.day.opens_hint')}</p>
      </fieldset>

      <CheckboxRow role="switch" label={t('admin.day.wall_paused')} checked={value.wall_paused} onChange={(e) => onChange({ wall_paused: e.target.checked })} />
      <p className="muted settings-hint">{t('admin.day.wall_paused_hint')}</p>

      <Field id="st-tables" label={t('admin.day.tables')} hint={t('admin.day.tables_hint')}>
        <input
          id="st-tables"
          type="number"
          inputMode="numeric"
          min={0}
          max={200}
          step={1}
          value={value.tables ?? 0}
          onChange={(e) => onChange({ tables: e.target.value === '' ? 0 : Math.trunc(Number(e.target.value)) })}
        />
      </Field>

      <Field id="st-zone" label={t('admin.day.zone')} hint={t('admin.day.zone_hint')}>
        <input id="st-zone" type="text" list="st-zones" value={value.time_zone} onChange={(e) => onChange({ time_zone: e.target.value })} />
        <datalist id="st-zones">
          {zoneNames().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
      </Field>
    </Card>
  );
}
