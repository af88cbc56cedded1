import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { interpret } from '../../client/i18n/interpret.js';
import { argumentsOf, casesOf, parseMessage, readCatalogues } from '../../scripts/i18n/catalogues.mjs';
import { localesWithPseudo } from '../helpers/i18n-build.js';
import { tempDir } from '../helpers/temp.js';

/** Values that walk every branch: each plural category's numbers, each select case, text. */
function samples(text: string): Record<string, string | number>[] {
  const tokens = parseMessage(text);
  const args = argumentsOf(tokens);
  const numbers = [0, 1, 2, 3, 5, 11, 21, 22, 25, 101, 1.5, 1234];
  const cases = casesOf(tokens);
  return numbers.map((n, i) => {
    const v: Record<string, string | number> = {};
    for (const [name, kind] of args) {
      if (kind === 'text') v[name] = `«${name}»`;
      else if (kind === 'select') {
        const keys = cases.find((c) => c.arg === name)?.cases ?? ['other'];
        v[name] = keys[i % keys.length];
      } else v[name] = n;
    }
    return v;
  });
}

test("the browser's interpreter gives @lingui/core's text for every message of every catalogue, in every plural form", async () => {
  // The real catalogues and pseudo ones for a few languages with many plural forms.
  const dir = tempDir('i18n-interpret-');
  localesWithPseudo({ pl: 'ltr', ar: 'rtl', ru: 'ltr' }, dir);
  let compared = 0;
  for (const c of await readCatalogues(dir)) {
    const messages = Object.fromEntries(c.entries.map((e) => [e.key, compileMessage(e.text)]));
    const lingui = setupI18n({ locale: c.lang, messages: { [c.lang]: messages } });
    for (const e of c.entries) {
      for (const values of samples(e.text)) {
        assert.equal(interpret(c.lang, messages[e.key] as never, values), lingui._(e.key, values), `${c.lang} ${e.key} ${JSON.stringify(values)}`);
        compared++;
      }
    }
  }
  assert.ok(compared > 4 * 500 * 12, `${compared} texts compared`);
});

test('plural forms follow each language: English one/other, Polish 1, 2, 5 three forms, # written the language’s way', () => {
  const m = compileMessage('{count, plural, one {# zdjęcie} few {# zdjęcia} many {# zdjęć} other {# zdjęcia}}') as never;
  assert.deepEqual([1, 2, 5, 22, 25].map((count) => interpret('pl', m, { count })), ['1 zdjęcie', '2 zdjęcia', '5 zdjęć', '22 zdjęcia', '25 zdjęć']);
  assert.equal(interpret('de', compileMessage('{n, plural, other {# Fotos}}') as never, { n: 1234 }), '1.234 Fotos');
  assert.equal(interpret('en', compileMessage('{n, plural, =0 {none} one {# photo} other {# photos}}') as never, { n: 0 }), 'none');
});
