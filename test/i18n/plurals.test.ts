import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SHIPPED, translate } from '../../server/i18n/messages.js';

/** Languages whose nouns do not change after a number, so every plural form may read alike. */
const SAME_AFTER_NUMBERS = new Set(['tr']);

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
    // Turkish has "one" and "other" for ordinals' sake, but a noun after a number stays singular: "1 fotoğraf", "5 fotoğraf".
    if (forms.size > 1 && !SAME_AFTER_NUMBERS.has(lang)) assert.ok(new Set(texts.map(([, t]) => t)).size > 1, `${lang}: gallery.count reads the same for ${JSON.stringify(texts)}`);
    if (lang === 'pl') {
      const [one, two, five] = [1, 2, 5].map((count) => translate('pl', 'gallery.count', { count }));
      assert.equal(new Set([one, two, five]).size, 3, `Polish 1, 2, 5: ${one} / ${two} / ${five}`);
    }
  }
});

const counted = (lang: string, key: string, counts: number[]) => counts.map((count) => translate(lang, key, { count }));

test('Polish counts read "1 zdjęcie", "2 zdjęcia", "5 zdjęć", "22 zdjęcia", "25 zdjęć" in the gallery line and everywhere photos and files are counted', () => {
  const guests = ' od naszych gości';
  assert.deepEqual(counted('pl', 'gallery.count', [1, 2, 5, 22, 25]), [
    `1 zdjęcie lub film${guests}`,
    `2 zdjęcia i filmy${guests}`,
    `5 zdjęć i filmów${guests}`,
    `22 zdjęcia i filmy${guests}`,
    `25 zdjęć i filmów${guests}`,
  ]);
  assert.deepEqual(counted('pl', 'activity.count_photos', [1, 2, 5, 22, 25]), ['1 zdjęcie', '2 zdjęcia', '5 zdjęć', '22 zdjęcia', '25 zdjęć']);
  assert.deepEqual(counted('pl', 'activity.count_videos', [1, 3, 12]), ['1 film', '3 filmy', '12 filmów']);
  assert.deepEqual(counted('pl', 'admin.contributors.files', [1, 4, 5, 21, 24]), ['1 plik', '4 pliki', '5 plików', '21 plików', '24 pliki']);
  assert.deepEqual(counted('pl', 'upload.summary.all', [1, 2, 5]), ['Twój plik dotarł bezpiecznie', 'Wszystkie 2 pliki dotarły bezpiecznie', 'Wszystkich 5 plików dotarło bezpiecznie']);
  assert.equal(translate('pl', 'activity.upload_many_named', { name: 'Ania', what: translate('pl', 'activity.count_photos', { count: 12 }) }), 'Ania – przesłano: 12 zdjęć');
  assert.equal(translate('pl', 'errors.auth.too_many_attempts', { minutes: 15 }), 'Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 15 minut.');
});

test('Russian and Ukrainian counts take their own forms (21 is singular, 22 "few", 25 "many"); exactly one file or photo has its own sentence', () => {
  const ru = ' и видео от наших гостей';
  assert.deepEqual(counted('ru', 'gallery.count', [1, 2, 5, 21, 22, 25]), [
    '1 фотография или видео от наших гостей',
    `2 фотографии${ru}`,
    `5 фотографий${ru}`,
    `21 фотография${ru}`,
    `22 фотографии${ru}`,
    `25 фотографий${ru}`,
  ]);
  const uk = ' та відео від наших гостей';
  assert.deepEqual(counted('uk', 'gallery.count', [1, 2, 5, 21, 22, 25]), [
    '1 фотографія чи відео від наших гостей',
    `2 фотографії${uk}`,
    `5 фотографій${uk}`,
    `21 фотографія${uk}`,
    `22 фотографії${uk}`,
    `25 фотографій${uk}`,
  ]);
  assert.deepEqual(counted('ru', 'upload.summary.all', [1, 21]), ['Ваш файл благополучно получен', 'Все файлы благополучно получены (21)']);
  assert.deepEqual(counted('uk', 'upload.summary.all', [1, 21]), ['Ваш файл уже в нас', 'Усі файли вже в нас (21)']);
  assert.deepEqual(counted('ru', 'admin.contributors.files', [1, 3, 11, 21]), ['1 файл', '3 файла', '11 файлов', '21 файл']);
  assert.deepEqual(counted('uk', 'admin.contributors.files', [1, 3, 11, 21]), ['1 файл', '3 файли', '11 файлів', '21 файл']);
  assert.deepEqual(counted('uk', 'live.insights.more_devices', [1, 2, 5]), ['і ще 1 пристрій', 'і ще 2 пристрої', 'і ще 5 пристроїв']);
});

test('German and Dutch count one and many: "1 Foto oder Video", "2 Fotos und Videos", "1 foto of video", "2 foto’s en video’s"', () => {
  assert.deepEqual(counted('de', 'gallery.count', [1, 2, 1234]), ['1 Foto oder Video von unseren Gästen', '2 Fotos und Videos von unseren Gästen', '1.234 Fotos und Videos von unseren Gästen']);
  assert.deepEqual(counted('nl', 'gallery.count', [1, 2]), ['1 foto of video gedeeld door onze gasten', '2 foto’s en video’s gedeeld door onze gasten']);
});
