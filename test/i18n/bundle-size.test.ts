import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GUEST_LIMIT_BYTES, languageLimit, measureBundles } from '../../scripts/bundle-size.mjs';
import { ROOT } from '../../scripts/i18n/catalogues.mjs';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

test('the English guest pages load at most 100 KB of JavaScript (gzip), and each language file at most 10 KB (the admin panel\'s 16 KB)', () => {
  // npm test builds first: this is the build the site ships.
  const m = measureBundles(ROOT);
  assert.ok(m.guestGzip > 50 * 1024, `measured something (${kb(m.guestGzip)})`);
  assert.ok(m.guestGzip <= GUEST_LIMIT_BYTES, `guest pages ${kb(m.guestGzip)} gzip, over ${kb(GUEST_LIMIT_BYTES)}: ${m.guestFiles.join(', ')}`);
  assert.ok(!m.guestFiles.some((f) => /AdminApp|WallPage|locale-/.test(f)), 'the admin panel, the wall and other languages are not in the guest pages');
  for (const l of m.languages) assert.ok(l.gzip <= languageLimit(l.part), `${l.file}: ${kb(l.gzip)} gzip, over ${kb(languageLimit(l.part))}`);
});
