// Types of catalogues.mjs, for the tests that read the catalogues.
export interface PoEntry {
  key: string;
  text: string;
  comments: string[];
  flags: string[];
  line: number;
}
export interface Catalogue {
  lang: string;
  file: string;
  header: Record<string, string>;
  entries: PoEntry[];
}
export interface Locales {
  languages: [string, string, 'ltr' | 'rtl'][];
  messages: Record<string, Record<string, Record<string, unknown>>>;
  ids: Map<string, string>;
  build: string;
  problems: string[];
  parts: string[];
  serverPart: string;
}
export interface Token {
  type: string;
  arg?: string;
  key?: string;
  cases?: { key: string; tokens: Token[] }[];
  value?: string;
}
export const ROOT: string;
export const LOCALES_DIR: string;
export function languageTable(): Promise<typeof import('../../common/languages.js')>;
export function parseMessage(text: string): Token[];
export function argumentsOf(tokens: Token[]): Map<string, string>;
export function casesOf(tokens: Token[]): { arg: string; type: string; cases: string[] }[];
export function readCatalogues(dir?: string): Promise<Catalogue[]>;
export function shortId(n: number): string;
export function loadLocales(dir?: string): Promise<Locales>;
export function moduleSource(loc: Locales, spec: string, opts: { shorten: boolean }): string;
