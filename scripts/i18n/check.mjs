// The catalogue check (test/i18n/catalogues.test.ts runs it; `node scripts/i18n/check.mjs` too):
// every catalogue has exactly English's keys, every message parses, uses the same placeholders
// and plural/select arguments as English and every plural form its language needs, and the
// code and en.po name the same keys. Each problem names the language, the key and what is wrong.
import { argumentsOf, casesOf, languageTable, parseMessage, readCatalogues } from './catalogues.mjs';
import { keyUses } from './usage.mjs';

const KEY_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
/** ICU quotes with an apostrophe before { } or #: such a text would lose its braces; write ’ or ''. */
const QUOTING_APOSTROPHE = /'[{}#]/;

/** The parser reads a lone { or } as text; a translation never means that. */
function unpaired(text) {
  const bare = text.replace(/'[^']*'/g, '');
  return (bare.match(/\{/g) ?? []).length !== (bare.match(/\}/g) ?? []).length;
}

function describe(args) {
  return [...args].map(([k, v]) => (v === 'text' ? `{${k}}` : `{${k}, ${v}}`)).sort().join(' ') || 'none';
}

/** Problems in the catalogues themselves, as "lang key: problem" lines. */
export async function checkCatalogues(dir) {
  const { NAMESPACES, SOURCE_LANGUAGE } = await languageTable();
  const cats = await readCatalogues(dir);
  const out = [];
  const en = cats.find((c) => c.lang === SOURCE_LANGUAGE);
  if (!en) return [`en: locales/en.po is missing`];
  const english = new Map();
  for (const e of en.entries) {
    const where = `en ${e.key}`;
    if (!KEY_SHAPE.test(e.key)) out.push(`${where}: a key is lowercase words joined by dots (area.thing.detail)`);
    if (!NAMESPACES.includes(e.key.split('.')[0])) out.push(`${where}: "${e.key.split('.')[0]}" is not a namespace (common/languages.ts NAMESPACES)`);
    if (!e.comments.length) out.push(`${where}: no translator comment (#.) saying where it shows and what each placeholder is`);
    try {
      if (unpaired(e.text)) throw new Error('a { or } without its pair');
      english.set(e.key, parseMessage(e.text));
    } catch (err) {
      out.push(`${where}: ${err.message}`);
    }
  }
  for (const c of cats) {
    if ((c.header.Language ?? '') !== c.lang) out.push(`${c.lang} (header): "Language: ${c.lang}" is missing from the header entry`);
    const rules = new Intl.PluralRules(c.lang).resolvedOptions().pluralCategories;
    const seen = new Set();
    for (const e of c.entries) {
      const where = `${c.lang} ${e.key}`;
      seen.add(e.key);
      if (!english.has(e.key)) {
        if (c.lang !== SOURCE_LANGUAGE) out.push(`${where}: left over (not in en.po): delete it`);
        continue;
      }
      if (!e.text) {
        out.push(`${where}: not translated (empty msgstr)`);
        continue;
      }
      if (e.flags.includes('fuzzy')) out.push(`${where}: marked fuzzy: check it, then remove the flag`);
      if (QUOTING_APOSTROPHE.test(e.text)) out.push(`${where}: an apostrophe before { } or # starts ICU quoting; write ’ or ''`);
      let tokens;
      try {
        if (unpaired(e.text)) throw new Error('a { or } without its pair');
        tokens = parseMessage(e.text);
      } catch (err) {
        out.push(`${where}: does not parse: ${err.message}`);
        continue;
      }
      const mine = argumentsOf(tokens);
      const theirs = argumentsOf(english.get(e.key));
      if (describe(mine) !== describe(theirs)) out.push(`${where}: placeholders ${describe(mine)} differ from English's ${describe(theirs)}`);
      for (const p of casesOf(tokens)) {
        if (!p.cases.includes('other')) out.push(`${where}: {${p.arg}, ${p.type}} has no "other" case`);
        // English writes only the forms it needs; every other language gives each of its plural forms.
        if (p.type === 'plural' && c.lang !== SOURCE_LANGUAGE) {
          const missing = rules.filter((r) => !p.cases.includes(r));
          if (missing.length) out.push(`${where}: {${p.arg}, plural} lacks ${missing.join(', ')} (${c.lang} has ${rules.join(', ')})`);
        }
      }
    }
    if (c.lang !== SOURCE_LANGUAGE) for (const k of english.keys()) if (!seen.has(k)) out.push(`${c.lang} ${k}: missing`);
  }
  return out;
}

/** Problems between the code and en.po: keys used but missing, keys never used, keys built at run time, parts. */
export async function checkUsage(dir) {
  const { NAMESPACES, SOURCE_LANGUAGE, partOf, GUEST_PART, SERVER_PART } = await languageTable();
  const en = (await readCatalogues(dir)).find((c) => c.lang === SOURCE_LANGUAGE);
  const keys = new Set(en?.entries.map((e) => e.key));
  const { uses, built } = keyUses(new Set(NAMESPACES));
  const out = [];
  for (const b of built) out.push(`code ${b.file}:${b.line}: a key built at run time (${b.text}…): write each key out whole, in a table if need be`);
  const used = new Set();
  for (const u of uses) {
    used.add(u.key);
    if (!keys.has(u.key)) out.push(`en ${u.key}: used in ${u.file}:${u.line} but missing from en.po`);
    if (!u.file.startsWith('client/')) continue;
    // The browser has the guest pages' texts always, and a part's only where that part's code is.
    const part = partOf(u.key);
    if (part === SERVER_PART) out.push(`en ${u.key}: a server text used in ${u.file}:${u.line}, but the browser never gets the server's texts`);
    else if (part !== GUEST_PART && !u.file.split('/').includes(part)) out.push(`en ${u.key}: "${part}" text used in ${u.file}:${u.line}, outside a ${part}/ folder`);
  }
  for (const k of keys) if (!used.has(k)) out.push(`en ${k}: in en.po but used nowhere in the code: delete it, or use it`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = [...(await checkCatalogues()), ...(await checkUsage())];
  for (const p of problems) console.log(p);
  console.log(problems.length ? `${problems.length} problems` : 'catalogues: no problems');
  process.exit(problems.length ? 1 : 0);
}
