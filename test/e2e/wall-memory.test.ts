import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runWallSoak } from '../../scripts/bench/wall-memory.js';

test('the wall runs through hundreds of slides and live events without its heap or DOM growing', async (t) => {
  const r = await runWallSoak({ seconds: 30, intervalMs: 50 });
  t.diagnostic(
    `${r.slides} slides (${r.simulatedHours} h at 8 s a photo), ${r.events} events; heap ${r.heapStartMB} -> ${r.heapEndMB} MB; ` +
      `DOM nodes ${r.domNodesStart} -> ${r.domNodesEnd}; elements ${r.elementsStart} -> ${r.elementsEnd}; listeners ${r.listenersStart} -> ${r.listenersEnd}`,
  );
  assert.ok(r.slides >= 100, `only ${r.slides} slides were shown`);
  assert.ok(r.events >= 100, `only ${r.events} events were sent`);
  assert.ok(r.heapEndMB < r.heapStartMB + 10, `heap grew from ${r.heapStartMB} to ${r.heapEndMB} MB`);
  // Two slides at most during a crossfade: the page's element count does not depend on how long it ran.
  assert.ok(r.elementsEnd <= r.elementsStart + 4, `elements ${r.elementsStart} -> ${r.elementsEnd}`);
  assert.ok(r.domNodesEnd < r.domNodesStart + 100, `DOM nodes ${r.domNodesStart} -> ${r.domNodesEnd}`);
  assert.ok(r.listenersEnd < r.listenersStart + 60, `event listeners ${r.listenersStart} -> ${r.listenersEnd}`);
});
