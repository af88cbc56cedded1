import { setupI18n } from '@lingui/core';
import messages from 'locales:en/all';
import type { Message, MessageValues } from '../../common/languages.js';

/**
 * The catalogue's English, for what stays English whatever the reader speaks: the log, and an
 * error's own `message`. Kept apart from messages.ts so the media worker carries English only.
 */
export const englishBook = setupI18n({ locale: 'en', messages: { en: messages } });

/** Placeholder values with any message among them (a field's name) put into words by `words`. */
export function plainValues(values: MessageValues | undefined, words: (m: Message) => string): Record<string, string | number> | undefined {
  if (!values) return undefined;
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(values)) out[k] = typeof v === 'object' ? words(v) : v;
  return out;
}

export const inEnglish = (key: string, values?: MessageValues): string => englishBook._(key, plainValues(values, (m) => inEnglish(m.key, m.values)));
