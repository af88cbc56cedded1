import { language } from '../../i18n';
import { formatDateTime, t } from './t';
const UNITS = ['admin.size.bytes', 'admin.size.kb', 'admin.size.mb', 'admin.size.gb', 'admin.size.tb'];

/** SPEC §9: Bytes, KB, MB, GB (TB on the dashboard), base 1024, at most two decimals; the figure in the page's language. */
export function formatBytes(bytes: number, withTB = false): string {
  const units = withTB ? UNITS : UNITS.slice(0, 4);
  if (!Number.isFinite(bytes) || bytes <= 0) return t(UNITS[0], { size: 0 });
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  const figure = new Intl.NumberFormat(language.value, { maximumFractionDigits: 2, useGrouping: false }).format(bytes / 1024 ** i);
  return t(units[i], { size: figure });
}

/** A date and time in the wedding's zone and the page's language. */
export const formatDate = (iso: string | null | undefined): string => formatDateTime(iso);

export const formatDay = (iso: string | null | undefined): string => formatDateTime(iso, { dateStyle: 'medium' });

/** "Canon EOS 40D"; the make is left out when the model starts with its first word ("NIKON D70"). */
export function cameraName(make: string | null | undefined, model: string | null | undefined): string {
  const m = (make ?? '').trim();
  const n = (model ?? '').trim();
  if (!m) return n;
  if (!n) return m;
  const firstWord = m.split(/\s+/)[0].toLowerCase();
  return n.toLowerCase().startsWith(firstWord) ? n : `${m} ${n}`;
}

/** Storage percentage of the limit, or null when there is no usable limit. */
export function storagePercent(used: number | null | undefined, limit: number | null | undefined): number | null {
  if (used == null || !limit || limit <= 0) return null;
  return (used / limit) * 100;
}

/** SPEC §2: the warning colour is for strictly more than 80 %. */
export const storageWarning = (pct: number | null): boolean => pct !== null && pct > 80;

export const isVideo = (contentType: string | null | undefined): boolean => (contentType ?? '').startsWith('video/');
export const isImage = (contentType: string | null | undefined): boolean => (contentType ?? '').startsWith('image/');
