import { setupI18n, type I18n } from '@lingui/core';
import all from 'locales:all';
import { languages } from 'locales:meta';
import { LANGUAGES, SOURCE_LANGUAGE, type Message, type MessageValues } from '../../common/languages.js';
import { englishBook, plainValues } from './english.js';
import { isolateMessages } from './isolate.js';

/** The languages that have a catalogue, in the contract's order. */
export const SHIPPED: readonly string[] = languages.map((l) => l[0]);
export const isShipped = (code: unknown): code is string => typeof code === 'string' && SHIPPED.includes(code);
export const directionOf = (code: string): 'ltr' | 'rtl' => LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr';

// Right-to-left languages get their messages with every placed value isolated (isolate.ts), and
// so does the English a right-to-left page falls back to.
const books = new Map<string, I18n>([[SOURCE_LANGUAGE, englishBook]]);
for (const [lang, messages] of Object.entries(all)) {
  if (lang !== SOURCE_LANGUAGE) books.set(lang, setupI18n({ locale: lang, messages: { [lang]: directionOf(lang) === 'rtl' ? isolateMessages(messages) : messages } }));
}
const englishIsolated = setupI18n({ locale: SOURCE_LANGUAGE, messages: { [SOURCE_LANGUAGE]: isolateMessages(englishBook.messages) } });

/** `key`'s text in `lang`, English where that catalogue lacks it. */
export function translate(lang: string, key: string, values?: MessageValues): string {
  const b = books.get(lang);
  const english = directionOf(lang) === 'rtl' ? englishIsolated : englishBook;
  return (b && b.messages[key] !== undefined ? b : english)._(key, plainValues(values, (m) => translate(lang, m.key, m.values)));
}

export const render = (lang: string, m: Message): string => translate(lang, m.key, m.values);
