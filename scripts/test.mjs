// Runs every test file under test/ with node:test, compiled to plain JavaScript first
// (scripts/test-build.mjs). Browser tests (test/e2e) need Debian's chromium; without it they are
// left out, loudly.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildTests } from './test-build.mjs';

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

// Longest first, so no long file starts last while the other slots idle: by each file's time in
// the last run here (test-artifacts/cpu.tsv), else as measured when test/durations.tsv was written
// (`npm run test:durations` copies the last run's), else the browser files first.
const artifacts = path.join(root, 'test-artifacts');
fs.mkdirSync(artifacts, { recursive: true });
const known = new Map();
for (const table of [path.join(root, 'test', 'durations.tsv'), path.join(artifacts, 'cpu.tsv')]) {
  try {
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const [, wallMs, file] = line.split('\t');
      if (file) known.set(file, Number(wallMs));
    }
  } catch {
    /* not there */
  }
}
const guess = (f) => known.get(path.relative(root, f)) ?? (f.includes(`${path.sep}e2e${path.sep}`) ? 60_000 : 10_000);
files.sort((a, b) => guess(b) - guess(a));

// A folder of this run's own: two runs at once (a developer's and an editor's) must not share one.
const dist = path.join(root, 'dist');
for (const old of fs.existsSync(dist) ? fs.readdirSync(dist) : []) {
  const pid = Number(/^test-(\d+)$/.exec(old)?.[1]);
  if (pid && !isAlive(pid)) fs.rmSync(path.join(dist, old), { recursive: true, force: true });
}
const out = path.join(dist, `test-${process.pid}`);
const compiled = await buildTests(files, out);

const args = [
  // Stack traces name the TypeScript source and line.
  '--enable-source-maps',
  // Each file's CPU time, to test-artifacts/cpu.tsv.
  '--import', './scripts/test-cpu.mjs',
  path.join(root, 'scripts', 'test-run.mjs'),
  ...compiled,
];
const cpu = path.join(artifacts, 'cpu.tsv');
fs.writeFileSync(cpu, 'cpu_ms\twall_ms\tfile\tstarted_ms\n');
const r = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'test', WEDDING_TEST_OUT: out, WEDDING_TEST_CPU: cpu } });
fs.rmSync(out, { recursive: true, force: true });
if (!hasBrowser) console.error(`\n!! Reminder: browser tests were NOT run (no ${CHROMIUM}).\n`);
process.exit(r.status ?? 1);

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
