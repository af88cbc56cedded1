import type { ScheduleText, TranslatedTexts, Translations, WeddingSettings } from '../../common/api-types.js';
import { LANGUAGES, msg, type Message } from '../../common/languages.js';

/**
 * The couple's own words in other languages (settings.translations): any field of any language
 * optional. A guest reads their language's version where there is one, else the default
 * language's, else the texts the settings hold (which are written in the default language).
 */

const KNOWN = new Set(LANGUAGES.map((l) => l.code));
const SCHEDULE_TEXTS: readonly (keyof ScheduleText)[] = ['title', 'day', 'time', 'venue', 'location', 'attire', 'attendance', 'description'];
const LONG_TEXTS = { welcome_text: 'welcome_message', photo_sharing_text: 'photo_sharing_message', thank_you_text: 'thank_you_message' } as const;
const TEXT_MAX = 2000;

type Problems = Message[];
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text of at most `max` characters, trimmed; empty means "not given" (the default's shows). */
function text(v: unknown, field: string, max: number, problems: Problems): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') return void problems.push(msg('errors.rule.text', { field }));
  const t = v.trim();
  if (t.length > max) return void problems.push(msg('errors.rule.max_chars', { field, max }));
  return t || undefined;
}

function parseLanguage(code: string, raw: unknown, problems: Problems): TranslatedTexts | undefined {
  const at = `translations.${code}`;
  if (!isObject(raw)) return void problems.push(msg('errors.settings.translation_object', { field: at }));
  const out: TranslatedTexts = {};
  for (const key of Object.keys(raw)) {
    if (!(key in LONG_TEXTS) && key !== 'couple_names' && key !== 'schedule') problems.push(msg('errors.settings.unknown_field', { field: `${at}.${key}` }));
  }
  for (const key of Object.keys(LONG_TEXTS) as (keyof typeof LONG_TEXTS)[]) {
    const t = text(raw[key], `${at}.${key}`, TEXT_MAX, problems);
    if (t !== undefined) out[key] = t;
  }
  if (raw.couple_names !== undefined && raw.couple_names !== null) {
    const n = raw.couple_names;
    if (!Array.isArray(n) || n.length !== 2) problems.push(msg('errors.settings.translation_names', { field: `${at}.couple_names` }));
    else {
      const a = text(n[0], `${at}.couple_names[0]`, 60, problems) ?? '';
      const b = text(n[1], `${at}.couple_names[1]`, 60, problems) ?? '';
      if (a || b) out.couple_names = [a, b];
    }
  }
  if (raw.schedule !== undefined && raw.schedule !== null) {
    const s = raw.schedule;
    if (!Array.isArray(s) || s.length > 10) problems.push(msg('errors.settings.translation_schedule', { field: `${at}.schedule` }));
    else {
      out.schedule = s.map((item, i) => {
        const where = `${at}.schedule[${i}]`;
        if (item === null || item === undefined) return {};
        if (!isObject(item)) {
          problems.push(msg('errors.settings.translation_object', { field: where }));
          return {};
        }
        const texts: ScheduleText = {};
        for (const key of Object.keys(item)) if (!SCHEDULE_TEXTS.includes(key as keyof ScheduleText)) problems.push(msg('errors.settings.unknown_field', { field: `${where}.${key}` }));
        for (const f of SCHEDULE_TEXTS) {
          const t = text(item[f], `${where}.${f}`, f === 'description' ? 1000 : 200, problems);
          if (t !== undefined) texts[f] = t;
        }
        return texts;
      });
    }
  }
  return out;
}

/** Checks `translations` from a PUT: known language codes only, bounded texts; each problem names its field. */
export function parseTranslations(raw: unknown, problems: Problems): Translations | undefined {
  if (raw === null) return {};
  if (!isObject(raw)) return void problems.push(msg('errors.settings.translation_object', { field: 'translations' }));
  const out: Translations = {};
  for (const [code, texts] of Object.entries(raw)) {
    if (!KNOWN.has(code)) {
      problems.push(msg('errors.settings.translation_language', { field: `translations.${code}` }));
      continue;
    }
    const parsed = parseLanguage(code, texts, problems);
    if (parsed) out[code] = parsed;
  }
  return out;
}

/** The settings as a guest reading `lang` sees them: each text in `lang` where given, else the default language's. */
export function resolveSettings(s: WeddingSettings, lang: string): WeddingSettings {
  const order = [s.translations?.[lang], s.translations?.[s.default_language]].filter((t): t is TranslatedTexts => !!t);
  if (!order.length) return s;
  const pick = <T>(get: (t: TranslatedTexts) => T | undefined, base: T): T => {
    for (const t of order) {
      const v = get(t);
      if (v !== undefined && v !== '') return v;
    }
    return base;
  };
  const names = s.couple_names.map((n, i) => pick((t) => t.couple_names?.[i], n)) as [string, string];
  return {
    ...s,
    couple_names: names,
    welcome_message: pick((t) => t.welcome_text, s.welcome_message),
    photo_sharing_message: pick((t) => t.photo_sharing_text, s.photo_sharing_message),
    thank_you_message: pick((t) => t.thank_you_text, s.thank_you_message),
    schedule: s.schedule.map((item, i) => {
      const out = { ...item };
      for (const f of SCHEDULE_TEXTS) out[f] = pick((t) => t.schedule?.[i]?.[f], item[f]);
      // Photos keep belonging to a moment by the title the settings hold, whatever language shows it.
      if (out.title !== item.title) out.moment = item.title;
      return out;
    }),
  };
}
