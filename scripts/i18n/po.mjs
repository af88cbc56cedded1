// The gettext .po files under locales/, read strictly: one entry per key, msgid = key,
// msgstr = the text in ICU MessageFormat. Plural forms live inside msgstr (ICU), so
// msgid_plural and msgctxt are refused rather than half understood.

/** A problem in a catalogue file, with the line it is on. */
export class PoError extends Error {
  constructor(file, line, message) {
    super(`${file}:${line}: ${message}`);
    this.file = file;
    this.line = line;
  }
}

const ESCAPES = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

function unquote(raw, file, line) {
  const m = /^"((?:[^"\\]|\\.)*)"\s*$/.exec(raw);
  if (!m) throw new PoError(file, line, `expected a quoted string, found ${raw}`);
  return m[1].replace(/\\(.)/g, (_, c) => {
    if (!(c in ESCAPES)) throw new PoError(file, line, `unknown escape \\${c}`);
    return ESCAPES[c];
  });
}

/**
 * Parses a .po file into its header fields and entries
 * ({key, text, comments (#.), flags (#,), line}). Throws PoError naming the line.
 */
export function parsePo(source, file = 'catalogue.po') {
  const lines = source.replace(/^\uFEFF/, '').split(/\r?\n/);
  const entries = [];
  let header = null;
  let cur = null;
  let field = null;
  const fresh = (line) => ({ key: null, text: null, comments: [], flags: [], line });
  const finish = () => {
    if (!cur) return;
    if (cur.key === null) {
      if (cur.text !== null || cur.comments.length) throw new PoError(file, cur.line, 'an entry without msgid');
    } else if (cur.text === null) {
      throw new PoError(file, cur.line, `"${cur.key}" has no msgstr`);
    } else if (cur.key === '') {
      if (header) throw new PoError(file, cur.line, 'a second header entry (msgid "")');
      header = Object.fromEntries(
        cur.text
          .split('\n')
          .filter((l) => l.includes(':'))
          .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
      );
    } else {
      entries.push(cur);
    }
    cur = null;
    field = null;
  };
  lines.forEach((raw, i) => {
    const n = i + 1;
    const l = raw.trim();
    if (l === '') return finish();
    if (l.startsWith('#')) {
      if (cur && cur.key !== null) finish();
      cur ??= fresh(n);
      if (l.startsWith('#.')) cur.comments.push(l.slice(2).trim());
      else if (l.startsWith('#,')) cur.flags.push(...l.slice(2).split(',').map((f) => f.trim()).filter(Boolean));
      else if (l.startsWith('#~')) throw new PoError(file, n, 'obsolete entries (#~) are not kept: delete them');
      return;
    }
    const kw = /^(msgid|msgstr|msgctxt|msgid_plural|msgstr\[\d+\])\s+(.*)$/.exec(l);
    if (kw) {
      const [, word, rest] = kw;
      if (word !== 'msgid' && word !== 'msgstr') {
        throw new PoError(file, n, `${word} is not used here: the key is the msgid and plurals are written in ICU inside msgstr`);
      }
      if (word === 'msgid') {
        if (cur && cur.key !== null) finish();
        cur ??= fresh(n);
        cur.line = n;
        cur.key = unquote(rest, file, n);
      } else {
        if (!cur || cur.key === null) throw new PoError(file, n, 'msgstr before its msgid');
        if (cur.text !== null) throw new PoError(file, n, `"${cur.key}" has two msgstr`);
        cur.text = unquote(rest, file, n);
      }
      field = word;
      return;
    }
    if (l.startsWith('"')) {
      if (!cur || !field) throw new PoError(file, n, 'a continued string outside an entry');
      const more = unquote(l, file, n);
      if (field === 'msgid') cur.key += more;
      else cur.text += more;
      return;
    }
    throw new PoError(file, n, `cannot read this line: ${l.slice(0, 60)}`);
  });
  finish();
  const seen = new Map();
  for (const e of entries) {
    if (seen.has(e.key)) throw new PoError(file, e.line, `"${e.key}" is there twice (first on line ${seen.get(e.key)})`);
    seen.set(e.key, e.line);
  }
  return { header: header ?? {}, entries };
}

const quote = (s) =>
  '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\t/g, '\\t').replace(/\n/g, '\\n') + '"';

/** Writes a catalogue back (used to start a new language from en.po). */
export function formatPo(header, entries) {
  const head = Object.entries(header).map(([k, v]) => `${k}: ${v}\n`).join('');
  const out = ['msgid ""', `msgstr ${quote(head)}`, ''];
  for (const e of entries) {
    for (const c of e.comments) out.push(`#. ${c}`);
    if (e.flags?.length) out.push(`#, ${e.flags.join(', ')}`);
    out.push(`msgid ${quote(e.key)}`, `msgstr ${quote(e.text)}`, '');
  }
  return out.join('\n');
}
