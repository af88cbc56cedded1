import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createApp } from '../../server/app.js';
import { serverWithClient, startTestServer, TestClient, type TestServer } from '../helpers/server.js';

let s: TestServer;
let c: TestClient;
before(async () => ({ s, client: c } = await serverWithClient()));
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

test('an unknown API path answers the contract error body with code not_found', async () => {
  for (const p of ['/api/nothing', '/admin/api/nothing']) {
    const r = await c.get(p);
    assert.equal(r.status, 404, p);
    assert.deepEqual(r.body, { success: false, error: `No API route for GET /nothing`, code: 'not_found' }, p);
  }
  const post = await c.post('/api/no/such/route', { a: 1 });
  assert.equal(post.status, 404);
  assert.deepEqual(post.body, { success: false, error: 'No API route for POST /no/such/route', code: 'not_found' });
});

test('a malformed JSON body is a 400 JSON answer', async () => {
  const res = await c.fetch('/admin/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.success, false);
  assert.match(body.error, /not valid JSON/);
});

test('a malformed JSON body answers code invalid_input, on public and admin APIs alike', async () => {
  for (const p of ['/admin/api/login', '/api/upload']) {
    const res = await c.fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"username":' });
    assert.equal(res.status, 400, p);
    assert.deepEqual(await res.json(), { success: false, error: 'The request body is not valid JSON.', code: 'invalid_input' }, p);
  }
});

test('health answers 503 with code unavailable while the server is not ready', async () => {
  const { config, sessionSecret, sessions } = s.ctx;
  const app = createApp({ config, sessionSecret, sessions, users: s.services.users, auditLog: s.services.auditLog, modules: [], ready: () => false });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const r = await new TestClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`).get('/api/health');
    assert.equal(r.status, 503);
    assert.deepEqual(r.body, { success: false, status: 'starting', error: 'The server is starting.', code: 'unavailable' });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('every service the tests reach is on services, infrastructure on ctx', () => {
  assert.deepEqual(Object.keys(s.services).sort(), ['auditLog', 'bus', 'disk', 'faces', 'media', 'notifications', 'offsite', 'processing', 'security', 'settings', 'storage', 'users']);
  assert.equal(s.ctx.paths.root, s.dataDir);
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
