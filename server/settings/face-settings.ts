import type { WeddingSettings } from '../../common/api-types.js';
import { msg, type Message } from '../../common/languages.js';
import { parseIsoTime } from './controls.js';
import { wallClockAt } from './moments.js';

/** How long the face search stays on when the couple gives no end date. */
export const FACE_SEARCH_DAYS = 60;
const DAY_MS = 24 * 60 * 60 * 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type FaceSettings = Pick<WeddingSettings, 'face_search' | 'face_search_until'>;
export const FACE_KEYS: readonly (keyof FaceSettings)[] = ['face_search', 'face_search_until'];

/** The end of `date` (YYYY-MM-DD) on the wedding's clocks, as epoch ms; undefined when no such day. */
function endOfDay(date: string, zone: string): number | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const midnightAfter = Date.UTC(y, mo - 1, d + 1);
  if (new Date(Date.UTC(y, mo - 1, d)).getUTCDate() !== d) return undefined;
  // The instant whose reading in `zone` is the next midnight: shift by the zone's offset there.
  return midnightAfter - (wallClockAt(midnightAfter, zone) - midnightAfter) - 1000;
}

/** face_search and face_search_until as given: a boolean; null, a date (to its end) or an ISO time. */
export function parseFaceSettings(b: Record<string, unknown>, zone: string, problems: Message[]): Partial<FaceSettings> {
  const out: Partial<FaceSettings> = {};
  if (b.face_search !== undefined) {
    if (typeof b.face_search === 'boolean') out.face_search = b.face_search;
    else problems.push(msg('errors.rule.boolean', { field: 'face_search' }));
  }
  const until = b.face_search_until;
  if (until === null || until === '') out.face_search_until = null;
  else if (until !== undefined) {
    const ms = typeof until === 'string' ? (DATE.test(until.trim()) ? endOfDay(until.trim(), zone) : parseIsoTime(until)) : undefined;
    if (ms === undefined) problems.push(msg('errors.settings.face_search_until'));
    else out.face_search_until = new Date(ms).toISOString();
  }
  return out;
}

/**
 * The face search's settings after a change: turned on without an end, it ends 60 days later;
 * turned off, it has no end. An end in the past while on is refused (`problem`).
 */
export function resolveFaceSettings(previous: FaceSettings, patch: Partial<FaceSettings>, now = Date.now()): FaceSettings | { problem: Message } {
  const on = patch.face_search ?? previous.face_search;
  if (!on) return { face_search: false, face_search_until: null };
  let until = patch.face_search_until !== undefined ? patch.face_search_until : previous.face_search ? previous.face_search_until : null;
  until ??= new Date(now + FACE_SEARCH_DAYS * DAY_MS).toISOString();
  if (Date.parse(until) <= now) return { problem: msg('errors.settings.face_search_past') };
  return { face_search: true, face_search_until: until };
}
