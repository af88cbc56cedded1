import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ADMIN, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';

let s: TestServer;
let admin: TestClient;
let adminSecret: string;
before(async () => {
  s = await startTestServer();
  admin = new TestClient(s.url);
  await admin.login();
});
after(() => s.close());

async function newUser(role: 'family' | 'bride' = 'family') {
  const username = `${role}${Math.floor(Math.random() * 1e6)}`;
  const password = 'a-long-password';
  const r = await admin.post('/admin/api/users', { username, email: `${username}@example.com`, full_name: 'Someone', role, password });
  assert.equal(r.status, 201);
  return { username, password, id: r.body.user.id as number };
}

test('an admin without a passkey or codes cannot require two-step sign-in (they would lock themselves in)', async () => {
  const r = await admin.put('/admin/api/settings', { require_two_step: true });
  assert.equal(r.status, 409);
  assert.match(r.body.error, /your own account/);
  assert.equal((await admin.get('/admin/api/settings')).body.settings.require_two_step, false);
});

test('with codes of their own, an admin requires two-step sign-in; only admins may, and the public settings never show it', async () => {
  const setup = await admin.post('/admin/api/security/two-step/setup');
  adminSecret = setup.body.secret;
  assert.equal((await admin.post('/admin/api/security/two-step/enable', { code: codeAt(adminSecret) })).status, 200);
  const bride = await newUser('bride');
  const b = new TestClient(s.url);
  await b.login(bride.username, bride.password);
  assert.equal((await b.put('/admin/api/settings', { require_two_step: true })).status, 403);
  const r = await admin.put('/admin/api/settings', { require_two_step: true });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.settings.require_two_step, true);
  const pub = await new TestClient(s.url).get('/api/settings');
  assert.equal('require_two_step' in pub.body.settings, false);
  assert.equal('notify' in pub.body.settings, false);
});

test('a user without a second factor is taken to set one up after the password, and can do nothing else until then', async () => {
  const u = await newUser();
  const c = new TestClient(s.url);
  const r = await c.post('/admin/api/login', { username: u.username, password: u.password });
  assert.equal(r.status, 200);
  assert.equal(r.body.needs_setup, true);
  const me = await c.get('/admin/api/me');
  assert.equal(me.status, 200);
  assert.equal(me.body.setup_required, true);
  for (const [method, p] of [
    ['GET', '/admin/api/dashboard'],
    ['GET', '/admin/api/photos'],
    ['GET', '/admin/api/users'],
    ['GET', '/admin/api/export.zip?scope=all'],
    ['POST', '/admin/api/photos/bulk-toggle-visibility'],
  ] as const) {
    const x = await c.json(method, p, method === 'POST' ? { photo_ids: ['x'], action: 'show' } : undefined);
    assert.equal(x.status, 403, `${method} ${p}`);
    assert.equal(x.body.code, 'two_step_required', `${method} ${p}`);
  }
  const status = await c.get('/admin/api/security');
  assert.equal(status.status, 200);
  assert.equal(status.body.setup_required, true);
  const setup = await c.post('/admin/api/security/two-step/setup');
  assert.equal((await c.post('/admin/api/security/two-step/enable', { code: codeAt(setup.body.secret) })).status, 200);
  assert.equal((await c.get('/admin/api/dashboard')).status, 200, 'free once set up');
  assert.equal((await c.get('/admin/api/me')).body.setup_required, undefined);
});

test('a user signed in before two-step became required is held at the set-up on the next request', async () => {
  // Turned off, a user signs in with the password alone, then an admin requires two-step again.
  assert.equal((await admin.put('/admin/api/settings', { require_two_step: false })).status, 200);
  const u = await newUser();
  const c = new TestClient(s.url);
  await c.login(u.username, u.password);
  assert.equal((await c.get('/admin/api/dashboard')).status, 200);
  assert.equal((await admin.put('/admin/api/settings', { require_two_step: true })).status, 200);
  const held = await c.get('/admin/api/dashboard');
  assert.equal(held.status, 403);
  assert.equal(held.body.code, 'two_step_required');
});

test('with two-step required, an account with only a passkey must sign in with it: the password alone does not', async () => {
  const u = await newUser();
  s.writable()
    .prepare(`INSERT INTO passkeys (id, user_id, public_key, counter, name, created_at) VALUES (?, ?, ?, 0, 'Phone', ?)`)
    .run('credential-' + u.id, u.id, Buffer.from([1, 2, 3]), new Date().toISOString());
  const c = new TestClient(s.url);
  const r = await c.post('/admin/api/login', { username: u.username, password: u.password });
  assert.deepEqual(r.body, { success: true, needs_passkey: true });
  assert.equal((await c.get('/admin/api/me')).status, 401);
});

test('the last second factor cannot be removed while two-step is required', async () => {
  const off = await admin.post('/admin/api/security/two-step/disable', { code: codeAt(adminSecret, Date.now() + 30_000) });
  assert.equal(off.status, 409);
  assert.match(off.body.error, /keep at least one/);
  assert.equal((await admin.get('/admin/api/security')).body.two_step.enabled, true);
});
