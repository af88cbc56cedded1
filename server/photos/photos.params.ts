import { MAX_BULK_IDS, parsePhotoIds } from '../../common/rules.js';
import { invalid } from '../errors.js';

/** A whole-number query value: the default when absent, invalid when malformed or below min, capped at max. */
export function intParam(value: unknown, name: string, opts: { default: number; min: number; max?: number }): number {
  if (value === undefined || value === '') return opts.default;
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) throw invalid('errors.params.whole_number', { name });
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < opts.min) throw invalid('errors.params.at_least', { name, min: opts.min });
  return opts.max !== undefined ? Math.min(n, opts.max) : n;
}

export function boolParam(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalid('errors.rule.boolean', { field: name });
}

/**
 * photo_ids of a bulk moderation call: the shared rule (at most MAX_BULK_IDS, duplicates dropped),
 * answered with the sentences moderation has always used where they differ from the rule's.
 */
export function photoIds(body: unknown): string[] {
  const raw = (body as { photo_ids?: unknown } | undefined)?.photo_ids;
  const parsed = parsePhotoIds(raw, MAX_BULK_IDS);
  if ('ids' in parsed) return parsed.ids;
  if (Array.isArray(raw) && raw.length > MAX_BULK_IDS) throw invalid('errors.photos.bulk_too_many', { max: MAX_BULK_IDS, count: raw.length });
  if (Array.isArray(raw) && raw.some((id) => typeof id !== 'string' || id === '')) throw invalid('errors.photos.ids_not_strings');
  throw invalid(parsed.problem);
}

/** Visibility of a bulk call: "show" or "hide". */
export function bulkAction(body: unknown): 'show' | 'hide' {
  const action = (body as { action?: unknown } | undefined)?.action;
  if (action !== 'show' && action !== 'hide') throw invalid('errors.photos.bad_action');
  return action;
}

/** Rotation: 90 (the default), 180 or 270 degrees clockwise. */
export function rotationDegrees(body: unknown): 90 | 180 | 270 {
  const raw = (body as { degrees?: unknown } | undefined)?.degrees;
  if (raw === undefined || raw === null) return 90;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (n === 90 || n === 180 || n === 270) return n;
  throw invalid('errors.photos.bad_degrees');
}
