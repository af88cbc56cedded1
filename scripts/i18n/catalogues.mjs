// Turns locales/*.po into the modules the site imports (the `locales:` specifiers), the same way
// for the build (esbuild-plugin.mjs) and for code run from source (node-hooks.mjs):
//   locales:meta          the shipped languages [code, name, dir] and the catalogues' build hash
//   locales:<lang>/<part>  one language's compiled messages of one part (guest, admin, server...)
//   locales:all            every language's messages of every part: the server's
// Messages are compiled here (ICU -> Lingui's precompiled arrays), so no ICU parser ships.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from '@messageformat/parser';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { transform } from 'esbuild';
import { parsePo } from './po.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const LOCALES_DIR = path.join(ROOT, 'locales');
/** Bumped when the generated modules change shape, so cached catalogue files get new names. */
const FORMAT = 1;

let table;
/** LANGUAGES, PARTS and friends from common/languages.ts (the one place they are written). */
export async function languageTable() {
  if (!table) {
    const src = fs.readFileSync(path.join(ROOT, 'common/languages.ts'), 'utf8');
    const { code } = await transform(src, { loader: 'ts', format: 'esm' });
    table = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  }
  return table;
}

/** Parses one ICU message strictly; throws with the parser's own description of the problem. */
export function parseMessage(text) {
  return parse(text, { strict: false });
}

/** The arguments a message uses, name -> kind ('text', 'plural', 'select', 'number', ...), nested ones too. */
export function argumentsOf(tokens, out = new Map()) {
  for (const t of tokens) {
    if (t.type === 'argument') out.set(t.arg, 'text');
    else if (t.type === 'function') out.set(t.arg, t.key);
    else if (t.type === 'plural' || t.type === 'select' || t.type === 'selectordinal') {
      out.set(t.arg, t.type);
      for (const c of t.cases) argumentsOf(c.tokens, out);
    }
  }
  return out;
}

/** The plural and select arguments with the case names each gives, for the per-language check. */
export function casesOf(tokens, out = []) {
  for (const t of tokens) {
    if (t.type === 'plural' || t.type === 'select' || t.type === 'selectordinal') {
      out.push({ arg: t.arg, type: t.type, cases: t.cases.map((c) => c.key) });
      for (const c of t.cases) casesOf(c.tokens, out);
    }
  }
  return out;
}

/** Every catalogue file present: [{lang, file, header, entries}], en first. Throws on a file it cannot read. */
export async function readCatalogues(dir = LOCALES_DIR) {
  const { LANGUAGES } = await languageTable();
  const known = new Set(LANGUAGES.map((l) => l.code));
  const out = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.po')) continue;
    const lang = name.slice(0, -3);
    const file = path.join(dir, name);
    if (!known.has(lang)) throw new Error(`${file}: "${lang}" is not one of the languages in common/languages.ts`);
    out.push({ lang, file, ...parsePo(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file)) });
  }
  return out.sort((a, b) => (a.lang === 'en' ? -1 : b.lang === 'en' ? 1 : 0));
}

/** Short ids for the browser: a, b, ... Z, aa, ab ... (valid identifiers, so minified keys need no quotes). */
export function shortId(n) {
  const A = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
  let s = A[n % A.length];
  for (n = Math.floor(n / A.length); n > 0; n = Math.floor((n - 1) / A.length)) s = A[(n - 1) % A.length] + s;
  return s;
}

/**
 * Everything the modules are made of, computed once per process: the shipped languages, each
 * language's compiled messages by part, the short ids of the browser's keys and the build hash.
 */
export async function loadLocales(dir = LOCALES_DIR) {
  const { LANGUAGES, PARTS, partOf, SERVER_PART } = await languageTable();
  const cats = await readCatalogues(dir);
  const en = cats.find((c) => c.lang === 'en');
  if (!en) throw new Error(`${dir}/en.po is missing: English is the source of every other catalogue`);
  const ids = new Map();
  for (const e of en.entries) if (partOf(e.key) !== SERVER_PART) ids.set(e.key, shortId(ids.size));
  const problems = [];
  const messages = {}; // lang -> part -> key -> compiled
  for (const c of cats) {
    const byPart = (messages[c.lang] = {});
    for (const e of c.entries) {
      if (!e.text || e.flags.includes('fuzzy')) continue; // untranslated: English shows instead
      try {
        parseMessage(e.text);
      } catch (err) {
        problems.push(`${c.lang} ${e.key}: ${err.message}`);
        continue;
      }
      (byPart[partOf(e.key)] ??= {})[e.key] = compileMessage(e.text);
    }
  }
  if (problems.some((p) => p.startsWith('en '))) throw new Error(`locales/en.po has messages that do not parse:\n${problems.join('\n')}`);
  const hash = crypto.createHash('sha256').update(`${FORMAT}\n${JSON.stringify(PARTS)}\n`);
  for (const c of cats) hash.update(`${c.lang}\n${fs.readFileSync(c.file, 'utf8')}\n`);
  const present = new Set(cats.map((c) => c.lang));
  return {
    languages: LANGUAGES.filter((l) => present.has(l.code)).map((l) => [l.code, l.name, l.dir]),
    messages,
    ids,
    build: hash.digest('hex').slice(0, 10),
    problems,
    parts: [...new Set(['guest', ...Object.values(PARTS)])],
    serverPart: SERVER_PART,
  };
}

/** The compiled messages of one part, keyed by short id (browser) or by key (server). */
function partObject(loc, lang, part, shorten) {
  const src = loc.messages[lang]?.[part] ?? {};
  if (!shorten) return src;
  const out = {};
  for (const [k, v] of Object.entries(src)) if (loc.ids.has(k)) out[loc.ids.get(k)] = v;
  return out;
}

/** The source of the module `locales:<spec>`. */
export function moduleSource(loc, spec, { shorten }) {
  if (spec === 'meta') return `export const languages = ${JSON.stringify(loc.languages)};\nexport const build = ${JSON.stringify(loc.build)};\n`;
  if (spec === 'all') {
    const langs = loc.languages.map(([code]) => code);
    return (
      langs.map((l, i) => `import m${i} from 'locales:${l}/all';`).join('\n') + `\nexport default {${langs.map((l, i) => `${JSON.stringify(l)}: m${i}`).join(', ')}};\n`
    );
  }
  const m = /^([a-z]{2})\/([a-z]+)$/.exec(spec);
  if (!m) throw new Error(`unknown module locales:${spec}`);
  const [, lang, part] = m;
  if (part === 'all') {
    const all = Object.assign({}, ...loc.parts.map((p) => partObject(loc, lang, p, false)));
    return `export default ${JSON.stringify(all)};\n`;
  }
  if (!loc.parts.includes(part)) throw new Error(`locales:${spec}: "${part}" is not a catalogue part (common/languages.ts PARTS)`);
  if (shorten && part === loc.serverPart) throw new Error(`locales:${spec}: the server's texts never go to the browser`);
  return `export default ${JSON.stringify(partObject(loc, lang, part, shorten))};\n`;
}
