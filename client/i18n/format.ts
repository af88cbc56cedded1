import { settings } from '../state/settings';
import { language, t } from './index';

/**
 * Numbers, sizes and times in the page's language, by Intl: "6,0 MB" in German, "6.0 MB" in
 * English. Times are the wedding's (settings.time_zone), wherever the phone is.
 */

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(digits: number, grouping: boolean): Intl.NumberFormat {
  const key = `n${language.value}${digits}${grouping}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) cache.set(key, (f = new Intl.NumberFormat(language.value, { minimumFractionDigits: digits, maximumFractionDigits: digits, useGrouping: grouping })));
  return f;
}

/** A count or a figure with `digits` decimals in the page's language ("1,234" / "1.234"). */
export const formatNumber = (n: number, digits = 0): string => numberFormat(digits, true).format(n);
/** A size's figure: never above 1023 in its unit, so it is written without a thousands separator. */
const sizeFigure = (n: number, digits: number): string => numberFormat(digits, false).format(n);

/** The wedding's time zone, once the settings are in (the browser's own until then). */
export const weddingZone = (): string | undefined => settings.peek()?.time_zone || undefined;

/** A time as the page's language writes it, in the wedding's zone ("7 Jun 2025, 16:30"). */
export function formatDateTime(iso: string | null | undefined, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const zone = weddingZone();
  const key = `d${language.value}${zone}${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(language.value, { ...options, timeZone: zone });
    } catch {
      f = new Intl.DateTimeFormat(language.value, options); // a zone this browser does not know
    }
    cache.set(key, f);
  }
  return f.format(d);
}

/**
 * "7 June 2025 at 20:00"-style text in `zone`, in the page's language, for a sentence: the gallery
 * opens on it, face codes are kept until it. No weekday: after a preposition a weekday would stand
 * in the nominative ("до суббота", "do sobota"), while a date without it reads right ("до 7 июня").
 */
export function formatInZone(iso: string, zone: string | undefined): string {
  const d = new Date(iso);
  try {
    return new Intl.DateTimeFormat(language.value, { dateStyle: 'long', timeStyle: 'short', timeZone: zone }).format(d);
  } catch {
    return d.toLocaleString(language.value);
  }
}

/** SPEC §9's units (B, KB, MB, GB; base 1024), the figure in the page's language: "6.0 MB", "6,0 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return t('format.size.b', { size: sizeFigure(bytes, 0) });
  const keys = ['format.size.kb', 'format.size.mb', 'format.size.gb'];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < keys.length - 1) {
    v /= 1024;
    i++;
  }
  return t(keys[i], { size: sizeFigure(v, v >= 100 ? 0 : 1) });
}
