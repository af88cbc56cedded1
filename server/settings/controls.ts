import { WALL_LAYOUTS, type Moderation, type ScheduleItem, type WallLayout, type WallSource, type WeddingSettings } from '../../common/api-types.js';
import { msg, type Message } from '../../common/languages.js';
import { parseIsoTime } from '../../common/rules.js';

export { parseIsoTime };

/**
 * The couple's controls on the day (moderation, gallery reveal, wall pause, time zone) and the
 * schedule items' moment windows: checked here, each problem a sentence naming its field.
 */

const MODERATIONS: readonly Moderation[] = ['manual', 'auto'];
const WALL_SOURCES: readonly WallSource[] = ['all', 'highlights'];

export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone.trim() === '' || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

type Controls = Pick<WeddingSettings, 'moderation' | 'gallery_opens_at' | 'wall_paused' | 'time_zone' | 'guest_downloads' | 'wall_source' | 'wall_layout' | 'wall_blank' | 'tables'>;
export const CONTROL_KEYS: readonly (keyof Controls)[] = ['moderation', 'gallery_opens_at', 'wall_paused', 'time_zone', 'guest_downloads', 'wall_source', 'wall_layout', 'wall_blank', 'tables'];
export const MAX_TABLES = 200;

/** The controls present in `b`, checked; problems are added to `problems`. */
export function parseControls(b: Record<string, unknown>, problems: Message[]): Partial<Controls> {
  const out: Partial<Controls> = {};
  if (b.moderation !== undefined) {
    if (MODERATIONS.includes(b.moderation as Moderation)) out.moderation = b.moderation as Moderation;
    else problems.push(msg('errors.settings.moderation'));
  }
  if (b.gallery_opens_at !== undefined) {
    const v = b.gallery_opens_at;
    if (v === null || v === '') out.gallery_opens_at = null;
    else if (parseIsoTime(v) !== undefined) out.gallery_opens_at = (v as string).trim();
    else problems.push(msg('errors.settings.opens_at'));
  }
  if (b.wall_paused !== undefined) {
    if (typeof b.wall_paused === 'boolean') out.wall_paused = b.wall_paused;
    else problems.push(msg('errors.rule.boolean', { field: 'wall_paused' }));
  }
  if (b.time_zone !== undefined) {
    if (isTimeZone(b.time_zone)) out.time_zone = b.time_zone.trim();
    else problems.push(msg('errors.settings.time_zone'));
  }
  if (b.guest_downloads !== undefined) {
    if (typeof b.guest_downloads === 'boolean') out.guest_downloads = b.guest_downloads;
    else problems.push(msg('errors.rule.boolean', { field: 'guest_downloads' }));
  }
  if (b.wall_source !== undefined) {
    if (WALL_SOURCES.includes(b.wall_source as WallSource)) out.wall_source = b.wall_source as WallSource;
    else problems.push(msg('errors.settings.wall_source'));
  }
  if (b.wall_layout !== undefined) {
    if (WALL_LAYOUTS.includes(b.wall_layout as WallLayout)) out.wall_layout = b.wall_layout as WallLayout;
    else problems.push(msg('errors.settings.wall_layout'));
  }
  if (b.wall_blank !== undefined) {
    if (typeof b.wall_blank === 'boolean') out.wall_blank = b.wall_blank;
    else problems.push(msg('errors.rule.boolean', { field: 'wall_blank' }));
  }
  if (b.tables !== undefined) {
    if (Number.isInteger(b.tables) && (b.tables as number) >= 0 && (b.tables as number) <= MAX_TABLES) out.tables = b.tables as number;
    else problems.push(msg('errors.settings.tables', { max: MAX_TABLES }));
  }
  return out;
}

/** starts_at/ends_at of schedule item `i` (0-based): both or neither, the end after the start. */
export function parseWindow(raw: Record<string, unknown>, i: number, problems: Message[]): Pick<ScheduleItem, 'starts_at' | 'ends_at'> {
  const given = (v: unknown) => v !== undefined && v !== null && v !== '';
  const item = i + 1;
  if (!given(raw.starts_at) && !given(raw.ends_at)) return { starts_at: null, ends_at: null };
  const start = parseIsoTime(raw.starts_at);
  const end = parseIsoTime(raw.ends_at);
  const before = problems.length;
  if (!given(raw.starts_at) || !given(raw.ends_at)) problems.push(msg('errors.settings.window_half', { item }));
  else {
    if (start === undefined) problems.push(msg('errors.settings.window_time', { item, field: 'starts_at' }));
    if (end === undefined) problems.push(msg('errors.settings.window_time', { item, field: 'ends_at' }));
    if (start !== undefined && end !== undefined && end <= start) problems.push(msg('errors.settings.window_order', { item }));
  }
  if (problems.length > before) return { starts_at: null, ends_at: null };
  return { starts_at: (raw.starts_at as string).trim(), ends_at: (raw.ends_at as string).trim() };
}

/** Two moments may touch (one ends as the next starts) but not overlap; their titles must differ. */
export function checkWindows(items: ScheduleItem[], problems: Message[]): void {
  const timed = items
    .map((it, i) => ({ i, title: it.title, start: parseIsoTime(it.starts_at), end: parseIsoTime(it.ends_at) }))
    .filter((w): w is { i: number; title: string; start: number; end: number } => w.start !== undefined && w.end !== undefined);
  for (let a = 0; a < timed.length; a++) {
    for (let b = a + 1; b < timed.length; b++) {
      const [x, y] = [timed[a], timed[b]];
      if (x.start < y.end && y.start < x.end) {
        problems.push(msg('errors.settings.windows_overlap', { first: x.i + 1, second: y.i + 1 }));
      }
      if (x.title.toLowerCase() === y.title.toLowerCase()) {
        problems.push(msg('errors.settings.windows_same_title', { first: x.i + 1, second: y.i + 1 }));
      }
    }
  }
}
