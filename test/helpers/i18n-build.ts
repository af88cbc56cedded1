import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { argumentsOf, LOCALES_DIR, parseMessage, ROOT, type Token } from '../../scripts/i18n/catalogues.mjs';
import { formatPo, parsePo } from '../../scripts/i18n/po.mjs';

/**
 * Pseudo-translations for tests, so the language machinery (negotiation, switching, right to
 * left, no English left) is exercised before real catalogues exist. Every letter of a text
 * becomes an accented look-alike ("Wedding" -> "Ŵéďďîñĝ"), placeholders and plural structure stay.
 * Where a real catalogue exists for the code, it is used instead.
 */
const LOOK_ALIKE: Record<string, string> = Object.fromEntries(
  [...'abcdeghilnorstuwyABCDEGHILNORSTUWY'].map((c, i) => [c, [...'àƀçďéĝĥîĺñöŕšţûŵýÀƁÇĎÉĜĤÎĹÑÖŔŠŢÛŴÝ'][i]]),
);
const RTL_MARKS: Record<string, string> = Object.fromEntries([...'abcdefghijklmnopqrstuvwxyz'].map((c, i) => [c, 'ابتثجحخدذرزسشصضطظعغفقكلمنه'[i]]));

function writeTokens(tokens: Token[], letters: (s: string) => string, inPlural = false): string {
  return tokens
    .map((t) => {
      if (t.type === 'content') return letters(t.value ?? '').replace(/'/g, "''").replace(/[{}]/g, "'$&'").replace(inPlural ? /#/g : /$^/, "'#'");
      if (t.type === 'octothorpe') return '#';
      if (t.type === 'argument') return `{${t.arg}}`;
      if (t.type === 'function') return `{${t.arg}, ${t.key}}`;
      const cases = (t.cases ?? []).map((c) => `${c.key} {${writeTokens(c.tokens, letters, t.type !== 'select')}}`).join(' ');
      return `{${t.arg}, ${t.type}, ${cases}}`;
    })
    .join('');
}

export function pseudoText(text: string, dir: 'ltr' | 'rtl'): string {
  const map = dir === 'rtl' ? RTL_MARKS : LOOK_ALIKE;
  const letters = (s: string) => [...s].map((c) => map[c] ?? map[c.toLowerCase()] ?? c).join('');
  const tokens = parseMessage(text);
  const out = writeTokens(tokens, letters);
  // The pseudo text must keep English's placeholders, or it would not stand in for a translation.
  const same = (a: Map<string, string>, b: Map<string, string>) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
  if (!same(argumentsOf(parseMessage(out)), argumentsOf(tokens))) throw new Error(`pseudo text of "${text}" changed its placeholders`);
  return out;
}

/** A locales folder: the real catalogues plus pseudo ones for `codes` that have none. */
export function localesWithPseudo(codes: Record<string, 'ltr' | 'rtl'>, dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(LOCALES_DIR)) if (f.endsWith('.po')) fs.copyFileSync(path.join(LOCALES_DIR, f), path.join(dir, f));
  const en = parsePo(fs.readFileSync(path.join(LOCALES_DIR, 'en.po'), 'utf8'));
  const pseudo: string[] = [];
  for (const [code, d] of Object.entries(codes)) {
    if (fs.existsSync(path.join(dir, `${code}.po`))) continue;
    const entries = en.entries.map((e) => ({ ...e, text: pseudoText(e.text, d) }));
    fs.writeFileSync(path.join(dir, `${code}.po`), formatPo({ Language: code }, entries));
    pseudo.push(code);
  }
  return pseudo;
}

/**
 * The whole site built with the real catalogues plus pseudo German (ltr) and Arabic (rtl) where
 * those have none, into a folder under test-artifacts (so the bundle finds node_modules). The
 * test starts it with ServerProcess({ entry, env: { CLIENT_DIR } }) and removes it after.
 */
export function buildWithLanguages(): { dir: string; entry: string; clientDir: string; pseudo: string[]; remove(): void } {
  const dir = fs.mkdtempSync(path.join(ROOT, 'test-artifacts', 'i18n-build-'));
  const pseudo = localesWithPseudo({ de: 'ltr', ar: 'rtl' }, path.join(dir, 'locales'));
  const out = path.join(dir, 'dist');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--quiet'], {
    cwd: ROOT,
    env: { ...process.env, WEDDING_LOCALES_DIR: path.join(dir, 'locales'), WEDDING_BUILD_OUT: out },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`the build with test languages failed:\n${r.stdout}\n${r.stderr}`);
  return { dir, entry: path.join(out, 'server/main.js'), clientDir: path.join(out, 'client'), pseudo, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
