import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCatalogues } from '../../scripts/i18n/catalogues.mjs';

/**
 * Wording the catalogues must keep, where a machine can tell: one word for one thing (each
 * language's glossary, locales/glossary), a button's label quoted as the button says it, no
 * literal translation that reads wrong. Each check names the language, the key and the text.
 */
type Book = Map<string, string>;
let books: Map<string, Book> | undefined;
let comments: Map<string, string> | undefined;
async function catalogues(): Promise<Map<string, Book>> {
  if (!books) {
    const cats = await readCatalogues();
    books = new Map(cats.map((c) => [c.lang, new Map(c.entries.map((e) => [e.key, e.text]))]));
    comments = new Map(cats.find((c) => c.lang === 'en')!.entries.map((e) => [e.key, e.comments.join(' ')]));
  }
  return books;
}
const show = (lang: string, key: string, text: string | undefined) => `${lang} ${key}: ${JSON.stringify(text)}`;

test('"Forget me" says what it does (delete my data), and the texts that name the button quote it as it is, in every language', async () => {
  const literal: Record<string, RegExp> = { ar: /انسو|انسَ/, he: /תשכח/, hi: /भूल/ };
  for (const [lang, book] of await catalogues()) {
    const label = book.get('faces.forget')!;
    if (literal[lang]) assert.ok(!literal[lang].test(label), `${show(lang, 'faces.forget', label)} reads as a plea: say "delete my data"`);
    for (const key of ['faces.forget_hint', 'faces.consent.kept', 'faces.consent.kept_until']) {
      const text = book.get(key);
      assert.ok(text?.includes(label), `${show(lang, key, text)} does not quote the button "${label}"`);
      if (literal[lang]) assert.ok(!literal[lang].test(text!), show(lang, key, text));
    }
  }
});

test('zh: no space around a person\'s name ({names}, a guest\'s {name}), as its glossary says', async () => {
  const zh = (await catalogues()).get('zh')!;
  // {name} is a person's where the English comment says so; elsewhere it is a file's or a field's.
  const personal = (key: string) => /\{name\}: (the name|their name|the signed-in person's name)/.test(comments!.get(key) ?? '');
  for (const [key, text] of zh) {
    if (/\s\{names\}|\{names\}\s/.test(text)) assert.fail(show('zh', key, text));
    if (personal(key) && /\s\{name\}|\{name\}\s/.test(text)) assert.fail(show('zh', key, text));
  }
});

test('ja: one spelling of "browser", ブラウザ (never ブラウザー)', async () => {
  for (const [key, text] of (await catalogues()).get('ja')!) assert.ok(!text.includes('ブラウザー'), show('ja', key, text));
});

test('hi: a file (फ़ाइल) is feminine wherever a text speaks of one', async () => {
  const hi = (await catalogues()).get('hi')!;
  // Texts whose subject is the file itself (or the photo it is): states and notices in the upload
  // box, "My uploads", the admin photos and the notification.
  const aboutAFile = [
    'upload.status.duplicate',
    'upload.toast.duplicate_text',
    'upload.mine.state_error',
    'upload.mine.deleted',
    'upload.mine.deleted_text',
    'upload.mine.delete_failed',
    'upload.mine.delete_failed_text',
    'admin.photos.processing_failed',
    'notify.processing_failed.named',
    'errors.media.not_generated',
  ];
  const masculine = /(गया|दिया|सका|हुआ|चुका|रहा|था)(?=$|[\s।.,–\-"”])/;
  for (const key of aboutAFile) assert.ok(!masculine.test(hi.get(key)!), `${show('hi', key, hi.get(key))}: फ़ाइल is feminine (गई, सकी, चुकी)`);
  for (const [key, text] of hi) assert.ok(!/फ़ाइल (गया|हुआ|रहा|सका)/.test(text), show('hi', key, text));
});

test('one word for a photo challenge, the glossary\'s, also in the upload page\'s lead (no "mission" beside "challenge")', async () => {
  // The word each glossary does not use for it, where a translation had mixed the two.
  const other: Record<string, RegExp> = { it: /mission/i, ar: /مهام|مهمة/, hi: /मिशन/, he: /משימ/, el: /αποστολ/i };
  for (const [lang, book] of await catalogues()) {
    if (!other[lang]) continue;
    for (const [key, text] of book) if (/^(challenges\.|admin\.(settings|dashboard)\.challenge|errors\.[a-z]+\.[a-z_]*challenge)/.test(key)) assert.ok(!other[lang].test(text), show(lang, key, text));
  }
});

test('tr: the moments filter says "etkinlik" ("Ana göre" reads "by mother"), and other people\'s faces are kept only with their own consent', async () => {
  const tr = (await catalogues()).get('tr')!;
  for (const [key, text] of tr) assert.ok(!/\b(ana|bir ana) (göre|ya da)\b/i.test(text), show('tr', key, text));
  // "Bunu istemeyen" (who do not want it) would mean others must object; faces are kept only for who asked and agreed.
  const others = tr.get('faces.consent.others')!;
  assert.ok(!/istemeyen/.test(others) && /onay/.test(others), show('tr', 'faces.consent.others', others));
});

test('de: the consent box speaks in the first person, as the other consent texts do', async () => {
  const agree = (await catalogues()).get('de')!.get('faces.consent.agree')!;
  assert.match(agree, /^Ich /, agree);
  assert.ok(!/\b(Nutzt|speichert mein|Nutze|Speichere)\b/.test(agree), `${agree}: no request to "ihr" or "du" in the guest's own sentence`);
});

test('es: the most-loved filter is "Las favoritas"', async () => {
  assert.equal((await catalogues()).get('es')!.get('gallery.most_loved'), 'Las favoritas');
});
