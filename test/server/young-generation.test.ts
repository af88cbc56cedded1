// The young generation's cap (server/young-generation.ts) is in every way the server starts, and
// Node takes it from NODE_OPTIONS: a process under churn keeps its new space at Node 20's 32 MiB
// (Node 22 and later grow it to 64 MiB without the option).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { YOUNG_GENERATION_OPTION } from '../../server/young-generation.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('the image and npm start / serve start Node with the young generation capped', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  assert.match(dockerfile, new RegExp(`^\\s+NODE_OPTIONS=${YOUNG_GENERATION_OPTION} \\\\$`, 'm'));
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  for (const name of ['start', 'serve']) assert.ok(scripts[name].includes(`NODE_OPTIONS=\${NODE_OPTIONS:-${YOUNG_GENERATION_OPTION}}`), `${name}: ${scripts[name]}`);
});

test('through NODE_OPTIONS a busy process keeps its new space at 32 MiB', () => {
  // Short-lived objects by the million, as requests make them; then the new space's size.
  const churn = `let k = []; for (let i = 0; i < 3e6; i++) { k.push({ i, s: 'x' + i }); if (k.length > 60000) k = []; }
    console.log(require('v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size)`;
  const r = spawnSync(process.execPath, ['-e', churn], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: YOUNG_GENERATION_OPTION } });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(Number(r.stdout) <= 32 * 1024 * 1024, `new space ${Number(r.stdout) / 1048576} MiB`);
});
