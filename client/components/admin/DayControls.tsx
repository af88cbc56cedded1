import type { Moderation, WeddingSettings } from '../../../common/api-types';
import { joinInZone, splitInZone } from '../zoned-time';

type Controls = Pick<WeddingSettings, 'moderation' | 'gallery_opens_at' | 'wall_paused' | 'time_zone'>;

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
    <section className="card settings-section" aria-labelledby="st-day-title">
      <h2 className="card-title" id="st-day-title">
        On the day
      </h2>

      <div className="field">
        <label htmlFor="st-moderation">New photos and videos</label>
        <select id="st-moderation" value={value.moderation} onChange={(e) => onChange({ moderation: e.target.value as Moderation })}>
          <option value="manual">Wait for approval (manual)</option>
          <option value="auto">Show by themselves (auto)</option>
        </select>
        <p className="muted settings-hint">
          Manual: a new upload stays hidden until someone approves it. Auto: it appears in the gallery and on the wall as soon as it has been processed;
          a file that cannot be processed stays hidden.
        </p>
      </div>

      <fieldset className="field settings-inline">
        <legend>Gallery opens</legend>
        <label htmlFor="st-opens-date">Date</label>
        <input id="st-opens-date" type="date" value={opens.date} onChange={(e) => setOpens(e.target.value, opens.time)} />
        <label htmlFor="st-opens-time">Time</label>
        <input id="st-opens-time" type="time" value={opens.time} disabled={!opens.date} onChange={(e) => setOpens(opens.date, e.target.value)} />
        {value.gallery_opens_at && (
          <button type="button" className="btn btn-sm btn-outline" onClick={() => onChange({ gallery_opens_at: null })}>
            Open now
          </button>
        )}
        <p className="muted settings-hint">
          Leave empty to keep the gallery open. With a date, guests see an empty gallery that tells them when it opens until then; uploads, this panel
          and the wall work as usual.
        </p>
      </fieldset>

      <label className="checkbox-row">
        <input type="checkbox" role="switch" checked={value.wall_paused} onChange={(e) => onChange({ wall_paused: e.target.checked })} />
        Wall paused
      </label>
      <p className="muted settings-hint">While paused, the reception wall shows only its QR code and the upload address (during the speeches, say).</p>

      <div className="field">
        <label htmlFor="st-zone">Time zone of the wedding</label>
        <input id="st-zone" type="text" list="st-zones" value={value.time_zone} onChange={(e) => onChange({ time_zone: e.target.value })} />
        <datalist id="st-zones">
          {zoneNames().map((z) => (
            <option key={z} value={z} />
          ))}
        </datalist>
        <p className="muted settings-hint">The dates and times on this page are in this zone, such as Europe/Berlin or America/New_York.</p>
      </div>
    </section>
  );
}
