import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { checkCatalogues, checkUsage } from '../../scripts/i18n/check.mjs';
import { LOCALES_DIR } from '../../scripts/i18n/catalogues.mjs';
import { tempDir } from '../helpers/temp.js';

const report = (problems: string[]) => `\n${problems.join('\n')}\n(${problems.length} problems; docs/translating.md "Translating" says how to fix them)`;

test('every catalogue has exactly English keys, each message parses with English placeholders and its language plural forms', async () => {
  const problems = await checkCatalogues();
  assert.deepEqual(problems, [], report(problems));
});

test('the code and en.po name the same keys, none built at run time, each in the part its code ships with', async () => {
  const problems = await checkUsage();
  assert.deepEqual(problems, [], report(problems));
});

test('the check names the language, the key and the problem: missing, left over, placeholders, plural forms, parse errors', async () => {
  const dir = tempDir('i18n-check-');
  fs.copyFileSync(path.join(LOCALES_DIR, 'en.po'), path.join(dir, 'en.po'));
  const po = (entries: string) => `msgid ""\nmsgstr "Language: pl\\n"\n\n${entries}`;
  // Only a few entries: every other English key is reported missing.
  fs.writeFileSync(
    path.join(dir, 'pl.po'),
    po(
      [
        'msgid "gallery.count"\nmsgstr "{count, plural, one {# zdjęcie} other {# zdjęć}}"',
        'msgid "upload.status.uploading"\nmsgstr "Wysyłanie... {procent}%"',
        'msgid "upload.status.pending"\nmsgstr "Czeka {"',
        'msgid "gallery.old_key"\nmsgstr "Stary"',
        'msgid "upload.toast.success_text"\nmsgstr ""',
      ].join('\n\n'),
    ),
  );
  const problems = await checkCatalogues(dir);
  const has = (re: RegExp) => assert.ok(problems.some((p) => re.test(p)), `expected ${re} among:${report(problems.slice(0, 12))}`);
  has(/^pl gallery\.count: \{count, plural\} lacks few, many \(pl has/);
  has(/^pl upload\.status\.uploading: placeholders \{procent\} differ from English's \{progress\}/);
  has(/^pl upload\.status\.pending: does not parse/);
  has(/^pl gallery\.old_key: left over/);
  has(/^pl upload\.toast\.success_text: not translated/);
  has(/^pl gallery\.title: missing$/);
  assert.ok(!problems.some((p) => p.startsWith('en ')), 'English itself is fine');
});
