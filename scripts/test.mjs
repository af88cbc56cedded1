// Runs every test file under test/ with node:test (TypeScript through tsx).
// Browser tests (test/e2e) need Debian's chromium; without it they are left out, loudly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const only = process.argv.slice(2);

function walk(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : e.name.endsWith('.test.ts') || e.name.endsWith('.test.tsx') ? [p] : [];
  });
}

let files = walk(path.join(root, 'test')).sort();
// Matched against the path inside the project: a checkout's own folder name must not match every file.
if (only.length) files = files.filter((f) => only.some((o) => path.relative(root, f).includes(o)));
// TEST_EXCLUDE=a,b leaves out files whose path holds a part (CI's second Node skips checks of looks that do not depend on Node).
const exclude = (process.env.TEST_EXCLUDE || '').split(',').filter(Boolean);
if (exclude.length) files = files.filter((f) => !exclude.some((o) => path.relative(root, f).includes(o)));
const hasBrowser = fs.existsSync(CHROMIUM);
if (!hasBrowser) {
  const e2e = files.filter((f) => f.includes(`${path.sep}e2e${path.sep}`));
  files = files.filter((f) => !e2e.includes(f));
  const bar = '!'.repeat(72);
  console.error(`\n${bar}\n!! BROWSER TESTS NOT RUN: ${CHROMIUM} is missing (${e2e.length} files left out).\n!! Install it with: apt-get install -y chromium   (.ci/run does this)\n${bar}\n`);
}

fs.mkdirSync(path.join(root, 'test-artifacts'), { recursive: true });
const args = [
  '--import', 'tsx',
  '--import', './scripts/i18n/register.mjs', // the catalogues (locales:*) for code run from source
  '--test',
  '--test-force-exit', // React in happy-dom leaves MessagePorts open
  `--test-concurrency=${process.env.TEST_CONCURRENCY || 2}`,
  '--test-reporter=spec',
  '--test-reporter-destination=stdout',
  // Every test's file and time, for finding what makes a run slow.
  '--test-reporter=./scripts/test-times.mjs',
  '--test-reporter-destination=stdout',
  ...files,
];
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test' } });
if (!hasBrowser) console.error(`\n!! Reminder: browser tests were NOT run (no ${CHROMIUM}).\n`);
process.exit(r.status ?? 1);
