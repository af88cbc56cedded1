import { signal } from '@preact/signals-react';
import english from 'locales:en/guest';
import { build, languages } from 'locales:meta';
import { catalogueUrl, GUEST_PART, LANGUAGE_COOKIE, LANGUAGE_COOKIE_MAX_AGE_S, SOURCE_LANGUAGE, type MessageValues } from '../../common/languages';
import { interpret, type Compiled } from './interpret';

/**
 * The browser's message layer: `t(key, values)` in the page's language. English is in the
 * bundles; another language's texts are fetched once, one file per catalogue part (guest pages,
 * admin panel...), before anything shows in it. Messages arrive precompiled by Lingui's compiler
 * (scripts/i18n), so no ICU parser ships; interpret.ts fills them in.
 */

type Messages = Record<string, Compiled>;
export type { MessageValues };

/** [code, name in itself, direction] of every language that has a catalogue, in the switcher's order. */
export const LANGUAGES = languages as readonly (readonly [string, string, 'ltr' | 'rtl'])[];
export const isShipped = (code: unknown): code is string => LANGUAGES.some((l) => l[0] === code);
export const directionOf = (code: string): 'ltr' | 'rtl' => LANGUAGES.find((l) => l[0] === code)?.[2] ?? 'ltr';

const books = new Map<string, Messages>();
/** The parts this page uses (the guest pages' always; a lazily loaded chunk adds its own) with their English. */
const parts = new Map<string, Messages>();
const loaded = new Set<string>();

function load(lang: string, messages: Messages): void {
  books.set(lang, { ...books.get(lang), ...messages });
}

/** Adds a part's English (in the chunk that shows it) so the page can fetch that part in other languages too. */
export function registerPart(name: string, englishMessages: Messages): void {
  if (parts.has(name)) return;
  parts.set(name, englishMessages);
  load(SOURCE_LANGUAGE, englishMessages);
}
registerPart(GUEST_PART, english);

function initialLanguage(): string {
  const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
  return isShipped(lang) ? lang : SOURCE_LANGUAGE;
}

/** The page's language; components re-render when it changes (the app's root reads it). */
export const language = signal(initialLanguage());

/**
 * `key`'s text in `lang` (English where that language lacks it), placeholders filled from `values`;
 * in a right-to-left language each value is isolated, so its brackets and numbers keep their place.
 */
export function tIn(lang: string, key: string, values?: MessageValues): string {
  const isolate = directionOf(lang) === 'rtl';
  const own = books.get(lang)?.[key];
  if (own !== undefined) return interpret(lang, own, values, isolate);
  const english = books.get(SOURCE_LANGUAGE)?.[key];
  return english === undefined ? key : interpret(SOURCE_LANGUAGE, english, values, isolate);
}

/** `key`'s text in the page's language. */
export const t = (key: string, values?: MessageValues): string => tIn(language.value, key, values);

async function fetchPart(lang: string, part: string): Promise<void> {
  const url = catalogueUrl(lang, part, build);
  let mod: { default: Messages };
  try {
    mod = await import(url);
  } catch {
    // A dropped connection: the browser may remember the failed import, so ask by another name.
    mod = await import(`${url}?retry=${Date.now()}`);
  }
  load(lang, mod.default);
  loaded.add(`${lang}/${part}`);
}

/** Fetches every part this page uses in `lang` that is not there yet. */
export async function loadLanguage(lang: string): Promise<void> {
  if (lang === SOURCE_LANGUAGE || !isShipped(lang)) return;
  await Promise.all([...parts.keys()].filter((p) => !loaded.has(`${lang}/${p}`)).map((p) => fetchPart(lang, p)));
}

/** For a lazily loaded chunk with its own part: resolves once its texts are there in the page's language. */
export async function withTexts<T>(chunk: Promise<T>): Promise<T> {
  const m = await chunk;
  await loadLanguage(language.peek()).catch(() => undefined);
  return m;
}

let couple: readonly [string, string] | undefined;
const pageTitle = () => (couple ? t('app.title_couple', { names: t('app.couple_names', { first: couple[0], second: couple[1] }) }) : t('app.title'));

/** The tab's title carries the couple's names, in the page's language (as the server wrote it). */
export function titleNames(names: readonly [string, string]): void {
  couple = names;
  document.title = pageTitle();
}

function show(lang: string): void {
  language.value = lang;
  const html = document.documentElement;
  html.lang = lang;
  html.dir = directionOf(lang);
  document.title = pageTitle();
}

/**
 * The switcher's choice: fetched first, then shown at once (nothing reloads, nothing is lost),
 * remembered in the cookie for every later page and request, and taken out of the address so a
 * reload keeps it.
 */
let choice = 0;
export async function setLanguage(lang: string): Promise<void> {
  if (!isShipped(lang)) return;
  const mine = ++choice;
  await loadLanguage(lang);
  // Arrow keys on the switcher pass through languages: the last one chosen wins.
  if (mine !== choice) return;
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; Max-Age=${LANGUAGE_COOKIE_MAX_AGE_S}; Path=/; SameSite=Lax${secure}`;
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    history.replaceState(history.state, '', url);
  }
  show(lang);
}

/**
 * Shows a page in `lang` without remembering it (the reception wall speaks the wedding's
 * language whatever the browser chose); returns how to go back.
 */
export async function showLanguage(lang: string): Promise<() => void> {
  const before = language.peek();
  if (!isShipped(lang) || lang === before) return () => undefined;
  await loadLanguage(lang);
  show(lang);
  return () => show(before);
}

/** Before the first paint: the page's language is fetched, so nothing flashes in English. */
export async function startLanguage(): Promise<void> {
  try {
    await loadLanguage(language.peek());
  } catch {
    // Not reachable now: English rather than no page at all.
    show(SOURCE_LANGUAGE);
  }
}
