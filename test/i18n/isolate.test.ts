import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { msg } from '../../common/languages.js';
import { tIn } from '../../client/i18n/index.js';
import { interpret } from '../../client/i18n/interpret.js';
import { argumentsOf, casesOf, parseMessage, readCatalogues } from '../../scripts/i18n/catalogues.mjs';
import { isolateMessages } from '../../server/i18n/isolate.js';
import { translate } from '../../server/i18n/messages.js';

/**
 * Values placed into a right-to-left sentence are isolated (U+2068 ... U+2069), so "Anna (sister)"
 * keeps its brackets where they belong inside Arabic or Hebrew; left-to-right languages, English
 * first (SPEC's texts are matched word for word), get their values as they are.
 */
const FSI = '\u2068';
const PDI = '\u2069';
const anna = { first: 'Anna (sister)', second: 'Ben 2' };

test('the server isolates a name placed into an Arabic or Hebrew sentence, nested messages too; English and German stay plain', () => {
  for (const lang of ['ar', 'he']) {
    const names = translate(lang, 'app.couple_names', anna);
    assert.ok(names.includes(`${FSI}Anna (sister)${PDI}`) && names.includes(`${FSI}Ben 2${PDI}`), `${lang}: ${JSON.stringify(names)}`);
    // The tab title: the couple's names (a message of their own) inside the title's sentence.
    const title = translate(lang, 'app.title_couple', { names: msg('app.couple_names', anna) });
    assert.ok(title.includes(`${FSI}${names}${PDI}`), `${lang}: ${JSON.stringify(title)}`);
    // A plural's count is the language's own number, written by the message: nothing to isolate.
    assert.ok(!translate(lang, 'gallery.count', { count: 3 }).includes(FSI), lang);
  }
  assert.equal(translate('en', 'app.couple_names', anna), 'Anna (sister) and Ben 2');
  assert.equal(translate('en', 'app.title_couple', { names: msg('app.couple_names', anna) }), "Anna (sister) and Ben 2's wedding");
  assert.ok(!/[\u2066-\u2069]/.test(translate('de', 'app.couple_names', anna)));
});

test('the browser isolates values on a right-to-left page, English fallback included, and not on a left-to-right one', () => {
  // This process has fetched no Arabic: the page falls back to English, still inside an rtl page.
  assert.equal(tIn('ar', 'app.couple_names', anna), `${FSI}Anna (sister)${PDI} and ${FSI}Ben 2${PDI}`);
  assert.equal(tIn('en', 'app.couple_names', anna), 'Anna (sister) and Ben 2');
  assert.equal(tIn('de', 'app.couple_names', anna), 'Anna (sister) and Ben 2');
});

/** Values that walk every branch: each plural category's numbers, each select case, text (one of them empty). */
function samples(text: string): Record<string, string | number>[] {
  const tokens = parseMessage(text);
  const args = argumentsOf(tokens);
  const cases = casesOf(tokens);
  return [0, 1, 2, 3, 11, 100].map((n, i) => {
    const v: Record<string, string | number> = {};
    for (const [name, kind] of args) {
      if (kind === 'text') v[name] = i === 0 ? '' : `(${name}) ${n}`;
      else if (kind === 'select') {
        const keys = cases.find((c) => c.arg === name)?.cases ?? ['other'];
        v[name] = keys[i % keys.length];
      } else v[name] = n;
    }
    return v;
  });
}

test("the browser's isolated text is the server's, for every message of the right-to-left catalogues", async () => {
  let compared = 0;
  for (const c of await readCatalogues()) {
    if (c.lang !== 'ar' && c.lang !== 'he') continue;
    const messages = Object.fromEntries(c.entries.map((e) => [e.key, compileMessage(e.text)]));
    const server = setupI18n({ locale: c.lang, messages: { [c.lang]: isolateMessages(messages) } });
    for (const e of c.entries) {
      for (const values of samples(e.text)) {
        const text = interpret(c.lang, messages[e.key] as never, values, true);
        assert.equal(text, server._(e.key, values), `${c.lang} ${e.key} ${JSON.stringify(values)}`);
        // Each placed value sits between its two marks.
        for (const [name, kind] of argumentsOf(parseMessage(e.text))) {
          if (kind === 'text' && values[name] !== '' && text.includes(String(values[name]))) assert.ok(text.includes(`${FSI}${values[name]}${PDI}`), `${c.lang} ${e.key}: ${text}`);
        }
        compared++;
      }
    }
  }
  assert.ok(compared > 2 * 500 * 6, `${compared} texts compared`);
});
