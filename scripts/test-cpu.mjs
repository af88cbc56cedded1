// Preloaded into every test file's process (scripts/test.mjs): when it exits, appends the CPU
// time it and the processes it waited for (its servers, workers, Chromium) used, with its wall
// time and when it started (ms since the epoch: a run's timeline, where the cores idled), to
// test-artifacts/cpu.tsv: which files cost the suite its CPU, and how long each takes
// (scripts/test.mjs orders the next run by it).
import fs from 'node:fs';
import { sourceOf } from './test-source.mjs';

const file = process.argv[1];
const out = process.env.WEDDING_TEST_CPU;
if (out && file?.endsWith('.test.js')) {
  const started = Date.now();
  process.on('exit', () => {
    try {
      // utime, stime, cutime, cstime: fields 14-17 of /proc/self/stat, in clock ticks (100 a second).
      const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
      const ticks = fields.slice(11, 15).reduce((a, b) => a + Number(b), 0);
      fs.appendFileSync(out, `${ticks * 10}\t${Date.now() - started}\t${sourceOf(file)}\t${started}\n`);
    } catch {
      /* no /proc: nothing to record */
    }
  });
}
