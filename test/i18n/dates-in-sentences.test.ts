import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { formatInZone } from '../../client/i18n/format.js';
import { language } from '../../client/i18n/index.js';
import { interpret } from '../../client/i18n/interpret.js';
import { readCatalogues, ROOT } from '../../scripts/i18n/catalogues.mjs';

/**
 * A date placed inside a sentence reads right in every language: it comes without the weekday (a
 * weekday after a preposition stands in the nominative: "до суббота", "do sobota", "em sábado",
 * "il sabato"), and the words before it suit a bare date ("fino al giorno 8 giugno", "ב-7 ביוני").
 */

/** The messages that take formatInZone's date, and the placeholder it goes into. */
const SENTENCE_DATES: Record<string, string> = {
  'gallery.opens_soon.text': 'when',
  'faces.consent.kept_until': 'date',
  'admin.faces.on_until': 'date',
};

const ZONE = 'Europe/Berlin';
// A week of evenings, so every weekday's name is looked for (the 8th and the 11th among them).
const WEEK = [6, 7, 8, 9, 10, 11, 12].map((d) => `2026-06-${String(d).padStart(2, '0')}T18:00:00Z`);
/** The language's weekday names (the full ones: a short one, "Di" or "日", is part of other words). */
const weekdays = (lang: string) => WEEK.map((iso) => new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: ZONE }).format(new Date(iso)));

function inLanguage<T>(lang: string, f: () => T): T {
  const before = language.peek();
  language.value = lang;
  try {
    return f();
  } finally {
    language.value = before;
  }
}

test('every call of formatInZone puts its date into one of the messages checked here', () => {
  const calls: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name)) for (const line of fs.readFileSync(p, 'utf8').split('\n')) if (line.includes('formatInZone(') && !line.includes('function formatInZone')) calls.push(line.trim());
    }
  };
  walk(path.join(ROOT, 'client'));
  assert.ok(calls.length >= 3, calls.join('\n'));
  for (const line of calls) {
    // The face-search end date goes to the consent panel as `until`, which says it in faces.consent.kept_until.
    const key = /t\('([a-z0-9_.]+)'/.exec(line)?.[1] ?? (/\buntil=\{/.test(line) ? 'faces.consent.kept_until' : undefined);
    assert.ok(key && key in SENTENCE_DATES, `a date from formatInZone goes somewhere not checked here: ${line}`);
  }
});

test('the date said in a sentence carries no weekday, in any language', async () => {
  for (const { lang } of await readCatalogues()) {
    for (const iso of WEEK) {
      const text = inLanguage(lang, () => formatInZone(iso, ZONE));
      assert.match(text, /2026/, lang);
      for (const day of weekdays(lang)) assert.ok(!text.includes(day), `${lang}: "${text}" names the weekday "${day}"`);
    }
  }
});

/** Words that must not stand right before a bare date, by language, with what to write instead. */
const BEFORE_A_DATE: Record<string, [RegExp, string][]> = {
  // "il 8 giugno" and "fino a 7 giugno" are wrong ("l'8", "fino al 7", "all'11"): "il giorno 8 giugno", "Creato: 8 giu 2026".
  it: [[/(^|[\s’'])(il|al|dal|del|a|l[’'])\s*$/i, '"il giorno", "al giorno" or a colon']],
  // "bis 7. Juni" reads clipped: "bis zum 7. Juni".
  de: [[/\bbis\s+$/, 'bis zum']],
  // A prefix letter glued to a date that starts with a digit needs a hyphen: "ב-7 ביוני".
  he: [[/(^|\s)[בלמהוכש]$/, 'ב-']],
};

test('every language says these dates in a grammatical sentence: no weekday after a preposition, the right words before a bare date', async () => {
  const problems: string[] = [];
  for (const c of await readCatalogues()) {
    for (const e of c.entries) {
      // Every date placed into a sentence (these and the admin's "Created {when}", "Added {date}"...).
      for (const m of e.text.matchAll(/\{(date|when)\}/g)) {
        for (const [bad, instead] of BEFORE_A_DATE[c.lang] ?? []) if (bad.test(e.text.slice(0, m.index))) problems.push(`${c.lang} ${e.key}: "${e.text.slice(Math.max(0, m.index! - 20), m.index! + m[0].length)}" (write ${instead})`);
      }
      const arg = SENTENCE_DATES[e.key];
      if (!arg) continue;
      assert.ok(e.text.includes(`{${arg}}`), `${c.lang} ${e.key} has no {${arg}}`);
      for (const iso of WEEK) {
        const text = interpret(c.lang, compileMessage(e.text) as never, { [arg]: inLanguage(c.lang, () => formatInZone(iso, ZONE)) });
        const day = weekdays(c.lang).find((d) => text.includes(d));
        if (day) {
          problems.push(`${c.lang} ${e.key}: a weekday inside the sentence, "${text.slice(Math.max(0, text.indexOf(day) - 20), text.indexOf(day) + day.length + 20)}"`);
          break;
        }
      }
    }
  }
  assert.equal(problems.length, 0, `${problems.length} texts:\n${problems.join('\n')}`);
});
