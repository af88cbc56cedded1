import { badRequest } from '../http/errors.js';

/** A whole-number query value: the default when absent, 400 when malformed or below min, capped at max. */
export function intParam(value: unknown, name: string, opts: { default: number; min: number; max?: number }): number {
  if (value === undefined || value === '') return opts.default;
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) throw badRequest(`${name} must be a whole number.`);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < opts.min) throw badRequest(`${name} must be at least ${opts.min}.`);
  return opts.max !== undefined ? Math.min(n, opts.max) : n;
}

export function boolParam(value: unknown, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw badRequest(`${name} must be true or false.`);
}

export const MAX_BULK_IDS = 500;

/** photo_ids of a bulk call: a non-empty list of strings, at most 500, duplicates dropped. */
export function photoIds(body: unknown): string[] {
  const ids = (body as { photo_ids?: unknown } | undefined)?.photo_ids;
  if (!Array.isArray(ids) || ids.length === 0) throw badRequest('photo_ids must be a non-empty list of photo ids.');
  if (ids.length > MAX_BULK_IDS) throw badRequest(`At most ${MAX_BULK_IDS} photos can be changed at once (got ${ids.length}).`);
  if (!ids.every((id) => typeof id === 'string' && id.length > 0 && id.length <= 200)) throw badRequest('Every photo id must be a non-empty string.');
  return [...new Set(ids as string[])];
}

/** Rotation: 90 (the default), 180 or 270 degrees clockwise. */
export function rotationDegrees(body: unknown): 90 | 180 | 270 {
  const raw = (body as { degrees?: unknown } | undefined)?.degrees;
  if (raw === undefined || raw === null) return 90;
  const n = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : raw;
  if (n === 90 || n === 180 || n === 270) return n;
  throw badRequest('degrees must be 90, 180 or 270.');
}
