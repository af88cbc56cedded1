/** SPEC §9: Bytes, KB, MB, GB (TB on the dashboard), base 1024, two decimals. */
export function formatBytes(bytes: number, withTB = false): string {
  const units = withTB ? ['Bytes', 'KB', 'MB', 'GB', 'TB'] : ['Bytes', 'KB', 'MB', 'GB'];
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const i = Math.min(units.length - 1, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${parseFloat((bytes / 1024 ** i).toFixed(2))} ${units[i]}`;
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function formatDay(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
}

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
