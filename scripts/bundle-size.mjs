// What browsers download, measured on the built client (dist/): the build prints it and
// test/i18n/bundle-size.test.ts holds it to the budget.
import fs from 'node:fs';
import path from 'node:path';

/** JavaScript of the English guest pages (/, /live, /gallery together), gzip: 96.0 KB before the languages, 4 KB more for every feature since. */
export const GUEST_LIMIT_BYTES = 100 * 1024;
/** One language's texts of one catalogue part, gzip. */
export const LANGUAGE_LIMIT_BYTES = 10 * 1024;
/**
 * The admin panel's texts in one language: loaded once per session by the couple and family on
 * their own devices, never by a guest; it grows with every admin page (off-site copy, keepsakes, remote).
 */
export const ADMIN_LANGUAGE_LIMIT_BYTES = 16 * 1024;
/** The limit a language file is held to. */
export const languageLimit = (part) => (part === 'admin' ? ADMIN_LANGUAGE_LIMIT_BYTES : LANGUAGE_LIMIT_BYTES);

const size = (file) => (fs.existsSync(file) ? fs.statSync(file).size : 0);

/**
 * Sizes of the .gz/.br copies the server sends: the guest pages' scripts (the entry and every
 * chunk it imports up front, not the admin panel, the wall or a language), every script, and
 * each language file.
 */
export function measureBundles(root, dist = path.join(root, 'dist')) {
  const meta = JSON.parse(fs.readFileSync(path.join(dist, 'client-meta.json'), 'utf8'));
  const outputs = meta.outputs;
  const main = Object.keys(outputs).find((f) => outputs[f].entryPoint === 'client/main.tsx' && f.endsWith('.js'));
  const guest = new Set();
  const walk = (f) => {
    if (guest.has(f)) return;
    guest.add(f);
    for (const i of outputs[f]?.imports ?? []) if (i.kind === 'import-statement') walk(i.path);
  };
  walk(main);
  const at = (f) => path.join(root, f);
  const sum = (files, ext) => [...files].reduce((n, f) => n + size(at(f) + ext), 0);
  const assets = path.join(dist, 'client/assets');
  const languages = fs
    .readdirSync(assets)
    .filter((n) => /^locale-.*\.js$/.test(n))
    .map((n) => {
      const [, lang, part] = /^locale-([a-z]{2})-([a-z]+)-/.exec(n) ?? [];
      return { file: n, lang, part, gzip: size(path.join(assets, n + '.gz')) };
    })
    .sort((a, b) => b.gzip - a.gzip);
  const js = Object.keys(outputs).filter((f) => f.endsWith('.js'));
  return {
    guestGzip: sum(guest, '.gz'),
    guestBrotli: sum(guest, '.br'),
    allGzip: sum(js, '.gz'),
    scripts: js.length,
    guestFiles: [...guest],
    languages,
  };
}

const kb = (n) => (n / 1024).toFixed(1);

/** The build's size line. */
export function formatSizes(m) {
  const big = m.languages[0];
  const lang = big ? `; largest language file ${kb(big.gzip)} KB gzip (${big.lang} ${big.part}), ${m.languages.length} in all` : '; no language files (English only)';
  return `client: ${m.scripts} JS files, ${kb(m.allGzip)} KB gzip in all; guest pages ${kb(m.guestGzip)} KB gzip, ${kb(m.guestBrotli)} KB brotli${lang}`;
}
