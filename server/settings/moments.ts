import type { WeddingSettings } from '../../common/api-types.js';
import { parseIsoTime } from './controls.js';

/**
 * Which schedule item ("moment") a photo belongs to: the one whose window holds the photo's
 * date taken, else its upload time. Windows are half-open (start <= t < end).
 *
 * EXIF times without an offset are stored as the camera's wall-clock reading marked "Z"
 * (whole seconds; see processing/exif.ts), while real instants (videos' creation time,
 * uploads) carry milliseconds or a real offset. A wall-clock reading is compared with the
 * window's wall-clock reading in the wedding's time zone, so a camera set to local time lands
 * in the right moment whatever zone the server runs in.
 */
export interface MomentWindow {
  title: string;
  /** Epoch ms. */
  start: number;
  end: number;
  /** The same bounds as wall-clock readings in the wedding's zone, written as if UTC. */
  wallStart: number;
  wallEnd: number;
}

/** The wall-clock reading pattern of processing/exif.ts, as a regex and as a SQLite GLOB. */
export const WALL_CLOCK = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const WALL_CLOCK_GLOB = '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]Z';

/** The reading a clock in `zone` shows at `ms`, as epoch ms of that reading taken as UTC. */
export function wallClockAt(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) + (ms % 1000);
}

/** The schedule items that have a window, in schedule order. */
export function momentWindows(s: Pick<WeddingSettings, 'schedule' | 'time_zone'>): MomentWindow[] {
  const out: MomentWindow[] = [];
  for (const item of s.schedule) {
    const start = parseIsoTime(item.starts_at);
    const end = parseIsoTime(item.ends_at);
    if (start === undefined || end === undefined) continue;
    out.push({ title: item.title, start, end, wallStart: wallClockAt(start, s.time_zone), wallEnd: wallClockAt(end, s.time_zone) });
  }
  return out;
}

/** The moment's title for a photo, or null when no window holds its time. */
export function momentOf(p: { date_taken: string | null; upload_timestamp: string }, windows: readonly MomentWindow[]): string | null {
  if (!windows.length) return null;
  const wall = p.date_taken !== null && WALL_CLOCK.test(p.date_taken);
  const t = Date.parse(p.date_taken ?? p.upload_timestamp);
  if (Number.isNaN(t)) return null;
  const w = windows.find((w) => (wall ? w.wallStart <= t && t < w.wallEnd : w.start <= t && t < w.end));
  return w?.title ?? null;
}
