// node:test's runner over the files given, in the order given (scripts/test.mjs puts the longest
// first; `node --test` sorts its arguments by name). Each file runs in a process of its own, with
// this process's Node options (--enable-source-maps, the CPU record). `forceExit`: a file's
// process ends when its tests have (React in happy-dom leaves MessagePorts open); given as the
// option, not as --test-force-exit on this process, which Node 24's run() crashes on when done.
// Three at once on two cores: the cores are busy all the run long (Chromium's renderers, which
// no process's own CPU count shows, are half the browser files' work); a fourth or more only
// adds contention (clean-clone runs of the same code: three 14.2 min, four 15.3; on the code
// before, five 16.9 and six 18.2: docs/tests.md).
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { recordTimes } from './test-times.mjs';

let failed = 0;
const out = run({ files: process.argv.slice(2), forceExit: true, concurrency: Number(process.env.TEST_CONCURRENCY || 3) })
  .compose(async function* (events) {
    for await (const event of events) {
      if (event.type === 'test:fail') failed++;
      yield event;
    }
  })
  .compose(recordTimes)
  .compose(new spec());
out.pipe(process.stdout);
await finished(out);
process.exitCode = failed ? 1 : 0;
