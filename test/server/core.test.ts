import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startTestServer, TestClient } from '../helpers/server.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let c: TestClient;
before(async () => {
  s = await startTestServer();
  c = new TestClient(s.url);
});
after(() => s.close());

test('health answers ok once migrated, and the database file is under DATA_DIR', async () => {
  const r = await c.get('/api/health');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { status: 'ok' });
  assert.ok(fs.existsSync(path.join(s.dataDir, 'wedding.db')));
  assert.ok(fs.existsSync(path.join(s.dataDir, 'session-secret')));
});

test('unknown API paths are 404 JSON, not the client page', async () => {
  for (const p of ['/api/nothing', '/admin/api/nothing', '/api/photos/x/y/z']) {
    const r = await c.get(p);
    assert.equal(r.status, 404, p);
    assert.equal(r.body.success, false);
    assert.equal(typeof r.body.error, 'string');
    assert.match(r.res.headers.get('content-type') ?? '', /json/);
  }
});

test('a malformed JSON body is a 400 JSON answer', async () => {
  const res = await c.fetch('/admin/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.success, false);
  assert.match(body.error, /not valid JSON/);
});

test('other paths serve the client index.html', async () => {
  const res = await c.fetch('/some/unknown/page');
  // The client bundle exists after `npm test` builds it.
  if (fs.existsSync(path.resolve('dist/client/index.html'))) {
    assert.equal(res.status, 200);
    assert.match(await res.text(), /<div id="root">/);
  } else {
    assert.equal(res.status, 404);
  }
});

test('security headers are set', async () => {
  const res = await c.fetch('/api/health');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(res.headers.get('x-powered-by'), null);
});

test('the server stops cleanly and a second start on the same DATA_DIR reuses it', async () => {
  const s2 = await startTestServer();
  const dir = s2.dataDir;
  await s2.close();
  const s3 = await startTestServer({}, dir);
  const r = await new TestClient(s3.url).get('/api/health');
  assert.equal(r.status, 200);
  await s3.close();
});
