// A node:test reporter that writes each top-level test's file, time and result to
// test-artifacts/times.tsv as it ends (written at once: --test-force-exit may end the run early).
import fs from 'node:fs';
import path from 'node:path';

const out = path.resolve('test-artifacts/times.tsv');

export default async function* times(source) {
  fs.writeFileSync(out, 'ms\tresult\tfile\ttest\n');
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      const ms = Math.round(event.data.details?.duration_ms ?? 0);
      const file = path.relative(process.cwd(), event.data.file);
      fs.appendFileSync(out, `${ms}\t${event.type === 'test:pass' ? 'pass' : 'fail'}\t${file}\t${String(event.data.name).replace(/\s+/g, ' ')}\n`);
    }
  }
  yield '';
}
