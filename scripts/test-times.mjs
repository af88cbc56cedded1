// Passes node:test's events on (scripts/test-run.mjs composes it before the spec reporter) and
// writes each top-level test's file, time and result to
// test-artifacts/times.tsv as it ends (written at once: --test-force-exit may end the run early),
// and each file's time, longest first, to test-artifacts/files.tsv: from its first test's start
// to its last test's end as this process saw them (a file's before/after hooks included).
import fs from 'node:fs';
import path from 'node:path';

const out = path.resolve('test-artifacts/times.tsv');
const perFile = path.resolve('test-artifacts/files.tsv');
// scripts/test.mjs runs compiled copies (WEDDING_TEST_OUT/…/x.test.js): name the source instead.
const compiledDir = process.env.WEDDING_TEST_OUT;

function sourceOf(file) {
  if (compiledDir && file.startsWith(compiledDir + path.sep)) {
    const stem = path.join('test', path.relative(compiledDir, file)).replace(/\.js$/, '');
    return fs.existsSync(stem + '.tsx') ? stem + '.tsx' : stem + '.ts';
  }
  return path.relative(process.cwd(), file);
}

export async function* recordTimes(source) {
  fs.writeFileSync(out, 'ms\tresult\tfile\ttest\n');
  const spans = new Map();
  for await (const event of source) {
    yield event;
    if (!event.data?.file || !['test:start', 'test:pass', 'test:fail'].includes(event.type)) continue;
    const file = sourceOf(event.data.file);
    const span = spans.get(file) ?? { first: Date.now(), last: Date.now() };
    span.last = Date.now();
    spans.set(file, span);
    if (event.type !== 'test:start' && event.data.nesting === 0) {
      const ms = Math.round(event.data.details?.duration_ms ?? 0);
      fs.appendFileSync(out, `${ms}\t${event.type === 'test:pass' ? 'pass' : 'fail'}\t${file}\t${String(event.data.name).replace(/\s+/g, ' ')}\n`);
      const rows = [...spans].map(([f, s]) => [s.last - s.first, f]).sort((a, b) => b[0] - a[0]);
      fs.writeFileSync(perFile, 'ms\tfile\n' + rows.map((r) => r.join('\t')).join('\n') + '\n');
    }
  }
}
