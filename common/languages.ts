/**
 * The languages the site can speak, in one place. A language is offered to guests only when its
 * catalogue `locales/<code>.po` exists (the build decides that); the list below is the full set
 * the contract names, each with its name in its own script and its writing direction.
 */
export interface Language {
  code: string;
  /** The language's name in itself, as the switcher shows it. */
  name: string;
  dir: 'ltr' | 'rtl';
}

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'pt', name: 'Português', dir: 'ltr' },
  { code: 'nl', name: 'Nederlands', dir: 'ltr' },
  { code: 'pl', name: 'Polski', dir: 'ltr' },
  { code: 'ro', name: 'Română', dir: 'ltr' },
  { code: 'el', name: 'Ελληνικά', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'uk', name: 'Українська', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'he', name: 'עברית', dir: 'rtl' },
  { code: 'hi', name: 'हिन्दी', dir: 'ltr' },
  { code: 'zh', name: '简体中文', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'vi', name: 'Tiếng Việt', dir: 'ltr' },
];

/** The language of SPEC.md's texts: complete by definition, and the fallback for a missing text. */
export const SOURCE_LANGUAGE = 'en';

/**
 * The first segment of every key: where a text appears (app-wide, a page, a feature) or what it
 * is (errors, answers). The catalogue check finds keys in the code by these.
 */
export const NAMESPACES = ['app', 'format', 'home', 'live', 'upload', 'gallery', 'viewer', 'wall', 'faces', 'admin', 'errors', 'answers', 'activity', 'notify', 'guestbook', 'keepsake', 'challenges', 'offsite', 'camera'] as const;

/**
 * Which catalogue part a key ships in, by its first segment. Keys of a part load with the code
 * that shows them: `guest` (every key not named here) with the guest pages' main script, `admin`
 * with the admin panel's chunk, `server` never leaves the server (API errors, activity lines).
 * A lazily loaded feature with many texts gets a part of its own here (see docs/translating.md "Translating").
 */
export const PARTS: Readonly<Record<string, string>> = {
  admin: 'admin',
  wall: 'wall',
  faces: 'faces',
  errors: 'server',
  answers: 'server',
  activity: 'server',
  notify: 'server',
  guestbook: 'guestbook',
  keepsake: 'server',
  challenges: 'challenges',
  offsite: 'server',
  camera: 'camera',
};
export const GUEST_PART = 'guest';
export const SERVER_PART = 'server';

export const partOf = (key: string): string => PARTS[key.slice(0, key.indexOf('.'))] ?? GUEST_PART;

/**
 * Values a message's placeholders take: text, numbers (plural and select arguments too), or on
 * the server another message, put into this one in the same language (a field's name).
 */
export type MessageValues = Record<string, string | number | Message>;

/** A text to be shown in the reader's language: its catalogue key and the values of its placeholders. */
export interface Message {
  key: string;
  values?: MessageValues;
}

/** `msg('errors.rule.required', { field: msg('errors.field.email') })` */
export const msg = (key: string, values?: MessageValues): Message => (values ? { key, values } : { key });

/** The cookie that remembers a guest's choice (400 days, SameSite=Lax). */
export const LANGUAGE_COOKIE = 'wedding_lang';
export const LANGUAGE_COOKIE_MAX_AGE_S = 400 * 24 * 60 * 60;

/** Where the browser fetches one language's texts of one part (written by scripts/build.mjs). */
export const catalogueUrl = (lang: string, part: string, build: string): string => `/assets/locale-${lang}-${part}-${build}.js`;
