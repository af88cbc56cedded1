import crypto from 'node:crypto';
import type { Challenge } from '../../common/api-types.js';
import { msg, type Message } from '../../common/languages.js';
import { CHALLENGE_DESCRIPTION_MAX, CHALLENGE_ID_PATTERN, CHALLENGE_TITLE_MAX, CHALLENGES_MAX } from '../../common/rules.js';

/**
 * The couple's photo challenges, checked: at most CHALLENGES_MAX, each with a title and an
 * optional description. An id is kept when given (photos name their challenge by it, so a title
 * can be reworded without losing them); a new challenge without one gets a short random id.
 * Problems are added to `problems`, one sentence each.
 */
export function parseChallenges(raw: unknown, problems: Message[]): Challenge[] | undefined {
  if (!Array.isArray(raw) || raw.length > CHALLENGES_MAX) {
    problems.push(msg('errors.settings.challenges', { max: CHALLENGES_MAX }));
    return undefined;
  }
  const before = problems.length;
  const out: Challenge[] = [];
  const ids = new Set<string>();
  raw.forEach((item, i) => {
    const field = `challenges[${i + 1}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(msg('errors.settings.translation_object', { field }));
      return;
    }
    const c = item as Record<string, unknown>;
    const title = typeof c.title === 'string' ? c.title.replace(/\s+/g, ' ').trim() : undefined;
    const description = c.description === undefined || c.description === null ? '' : typeof c.description === 'string' ? c.description.trim() : undefined;
    let id = c.id === undefined || c.id === null || c.id === '' ? undefined : c.id;
    if (!title) problems.push(msg('errors.rule.required', { field: `${field}.title` }));
    else if ([...title].length > CHALLENGE_TITLE_MAX) problems.push(msg('errors.rule.max_chars', { field: `${field}.title`, max: CHALLENGE_TITLE_MAX }));
    if (description === undefined) problems.push(msg('errors.rule.text', { field: `${field}.description` }));
    else if ([...description].length > CHALLENGE_DESCRIPTION_MAX) {
      problems.push(msg('errors.rule.max_chars', { field: `${field}.description`, max: CHALLENGE_DESCRIPTION_MAX }));
    }
    if (id !== undefined && (typeof id !== 'string' || !CHALLENGE_ID_PATTERN.test(id))) {
      problems.push(msg('errors.settings.challenge_id', { field: `${field}.id` }));
      return;
    }
    id ??= newChallengeId(ids);
    if (ids.has(id as string)) problems.push(msg('errors.settings.challenge_same_id', { field: `${field}.id` }));
    ids.add(id as string);
    if (title && description !== undefined) out.push({ id: id as string, title, description });
  });
  return problems.length > before ? undefined : out;
}

function newChallengeId(taken: ReadonlySet<string>): string {
  for (;;) {
    const id = crypto.randomBytes(6).toString('base64url');
    if (!taken.has(id)) return id;
  }
}

/** The title of challenge `id` among `challenges`, or null (none, or since removed). */
export function challengeTitle(challenges: readonly Challenge[], id: string | null): string | null {
  if (id === null) return null;
  return challenges.find((c) => c.id === id)?.title ?? null;
}
