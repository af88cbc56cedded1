import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHIPPED, translate } from '../../server/i18n/messages.js';

/** A number in each plural category of `lang` (1, 2, 5, 1.5 ... as the language's rules sort them). */
function samples(lang: string): Map<string, number> {
  const rules = new Intl.PluralRules(lang);
  const out = new Map<string, number>();
  for (const n of [0, 1, 2, 3, 5, 11, 21, 22, 25, 100, 101, 1.5]) if (!out.has(rules.select(n))) out.set(rules.select(n), n);
  return out;
}

test('counts take each language plural forms: every shipped language, and Polish "1 / 2 / 5" three ways once it ships', () => {
  // English, the source: one file or several.
  assert.equal(translate('en', 'upload.summary.all', { count: 1 }), 'Your file is safely received');
  assert.equal(translate('en', 'upload.summary.all', { count: 7 }), 'All 7 files safely received');
  for (const lang of SHIPPED.filter((l) => l !== 'en')) {
    const forms = samples(lang);
    const texts = [...forms].map(([category, n]) => [category, translate(lang, 'gallery.count', { count: n }).replace(/\d[\d.,\u00a0\u202f ]*/g, '#')]);
    // The catalogue check makes each language give all its forms; here they must read differently where the language needs it.
    if (forms.size > 1) assert.ok(new Set(texts.map(([, t]) => t)).size > 1, `${lang}: gallery.count reads the same for ${JSON.stringify(texts)}`);
    if (lang === 'pl') {
      const [one, two, five] = [1, 2, 5].map((count) => translate('pl', 'gallery.count', { count }));
      assert.equal(new Set([one, two, five]).size, 3, `Polish 1, 2, 5: ${one} / ${two} / ${five}`);
    }
  }
});
