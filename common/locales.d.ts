// The catalogues as modules (made from locales/*.po by scripts/i18n/catalogues.mjs).
declare module 'locales:meta' {
  /** [code, name in itself, direction] of each language that has a catalogue. */
  export const languages: readonly (readonly [string, string, 'ltr' | 'rtl'])[];
  /** A hash of every catalogue: the language files' names carry it. */
  export const build: string;
}
declare module 'locales:all' {
  /** language -> key -> compiled message (the server's). */
  const all: Record<string, import('@lingui/core').Messages>;
  export default all;
}
declare module 'locales:*' {
  /** One language's compiled messages of one part, by key (or short id in the browser). */
  const messages: import('@lingui/core').Messages;
  export default messages;
}
