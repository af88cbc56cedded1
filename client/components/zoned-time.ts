/**
 * Times in the wedding's time zone (settings.time_zone), whatever zone the browser is in: the
 * settings page's date and time pickers, and the gallery's "opens on" sentence.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar fields a clock in `zone` shows at the instant `ms`. */
function clockIn(ms: number, zone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' }).formatToParts(
    new Date(ms),
  );
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute') };
}

/** `zone`'s offset from UTC at the instant `ms`, in minutes. */
function offsetMinutes(ms: number, zone: string): number {
  const c = clockIn(ms, zone);
  return Math.round((Date.UTC(c.y, c.mo - 1, c.d, c.h, c.mi) - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/** An ISO time as the date ("2025-06-07") and time ("16:30") pickers in `zone` show it; blanks when absent. */
export function splitInZone(iso: string | null | undefined, zone: string): { date: string; time: string } {
  const ms = iso ? Date.parse(iso) : NaN;
  if (Number.isNaN(ms)) return { date: '', time: '' };
  const c = clockIn(ms, zone);
  return { date: `${c.y}-${pad(c.mo)}-${pad(c.d)}`, time: `${pad(c.h)}:${pad(c.mi)}` };
}

/** The pickers' date and time in `zone` as ISO 8601 with that zone's offset; null when either is blank. */
export function joinInZone(date: string, time: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !/^\d{2}:\d{2}$/.test(time)) return null;
  const asUtc = Date.parse(`${date}T${time}:00Z`);
  // The offset at the guessed instant, then once more at the corrected one (around a DST change).
  let offset = offsetMinutes(asUtc, zone);
  offset = offsetMinutes(asUtc - offset * 60_000, zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${date}T${time}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

// The gallery's "opens on" sentence is a guest page's: its formatter lives with the guest bundle's.
export { formatInZone } from '../i18n/format';
