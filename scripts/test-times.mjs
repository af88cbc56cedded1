// Passes node:test's events on (scripts/test-run.mjs composes it before the spec reporter) and
// writes each top-level test's file, time and result to test-artifacts/times.tsv as it ends
// (written at once: a file's process may be ended early). Each file's own time is in
// test-artifacts/cpu.tsv (scripts/test-cpu.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { sourceOf } from './test-source.mjs';

const out = path.resolve('test-artifacts/times.tsv');

export async function* recordTimes(source) {
  fs.writeFileSync(out, 'ms\tresult\tfile\ttest\n');
  for await (const event of source) {
    yield event;
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const ms = Math.round(event.data.details?.duration_ms ?? 0);
      fs.appendFileSync(out, `${ms}\t${event.type === 'test:pass' ? 'pass' : 'fail'}\t${sourceOf(event.data.file)}\t${String(event.data.name).replace(/\s+/g, ' ')}\n`);
    }
  }
}
