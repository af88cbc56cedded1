import { setupI18n, type I18n } from '@lingui/core';
import all from 'locales:all';
import { languages } from 'locales:meta';
import { LANGUAGES, SOURCE_LANGUAGE, type Message, type MessageValues } from '../../common/languages.js';
import { englishBook, plainValues } from './english.js';

/** The languages that have a catalogue, in the contract's order. */
export const SHIPPED: readonly string[] = languages.map((l) => l[0]);
export const isShipped = (code: unknown): code is string => typeof code === 'string' && SHIPPED.includes(code);
export const directionOf = (code: string): 'ltr' | 'rtl' => LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr';

const books = new Map<string, I18n>([[SOURCE_LANGUAGE, englishBook]]);
for (const [lang, messages] of Object.entries(all)) if (lang !== SOURCE_LANGUAGE) books.set(lang, setupI18n({ locale: lang, messages: { [lang]: messages } }));

/** `key`'s text in `lang`, English where that catalogue lacks it. */
export function translate(lang: string, key: string, values?: MessageValues): string {
  const b = books.get(lang);
  return (b && b.messages[key] !== undefined ? b : englishBook)._(key, plainValues(values, (m) => translate(lang, m.key, m.values)));
}

export const render = (lang: string, m: Message): string => translate(lang, m.key, m.values);
