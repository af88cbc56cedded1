import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { ADMIN, startTestServer, TestClient, userClient } from '../helpers/server.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer({ TRUST_PROXY: 'true' });
});
after(() => s.close());

test('the first admin is created from ADMIN_USERNAME / ADMIN_PASSWORD with an argon2id hash', async () => {
  const row = s.ctx.sqlite.prepare('SELECT username, role, password_hash FROM users').all() as any[];
  assert.equal(row.length, 1);
  assert.equal(row[0].username, 'admin');
  assert.equal(row[0].role, 'admin');
  assert.match(row[0].password_hash, /^\$argon2id\$/);
});

test("outside the test suite a password is hashed at argon2id's full cost (64 MiB, 3 passes, 4 lanes)", () => {
  // This suite runs with NODE_ENV=test and cheap hashes (server/auth/passwords.ts); the server as
  // it is started anywhere else must not.
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const hash = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "const { hashPassword } = await import('./server/auth/passwords.ts'); process.stdout.write(await hashPassword('a password'));"], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
  }).toString();
  assert.match(hash, /^\$argon2id\$v=19\$m=65536,p=4,t=3\$/);
});

test('login succeeds, sets an HttpOnly SameSite=Lax cookie, stamps last_login and logs activity', async () => {
  const c = new TestClient(s.url);
  const r = await c.post('/admin/api/login', ADMIN);
  assert.equal(r.status, 200);
  assert.equal(r.body.success, true);
  const cookie = c.lastSetCookie.find((x) => x.startsWith('wedding.sid='))!;
  assert.ok(cookie, 'session cookie set');
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.doesNotMatch(cookie, /Secure/i, 'plain HTTP gets no Secure flag');
  const me = await c.get('/admin/api/me');
  assert.equal(me.status, 200);
  assert.equal(me.body.user.role, 'admin');
  assert.equal(me.body.user.username, 'admin');
  assert.deepEqual(
    { a: me.body.user_permissions.can_manage_users, b: me.body.user_permissions.can_moderate_photos, c: me.body.user_permissions.is_admin },
    { a: true, b: true, c: true },
  );
  const u = s.ctx.sqlite.prepare('SELECT last_login FROM users WHERE username = ?').get('admin') as any;
  assert.ok(u.last_login && !Number.isNaN(Date.parse(u.last_login)));
  const a = s.ctx.sqlite.prepare("SELECT * FROM activity WHERE type = 'login' ORDER BY id DESC").get() as any;
  assert.equal(a.user_name, 'admin');
});

test('behind HTTPS (TRUST_PROXY) the cookie is Secure', async () => {
  const c = new TestClient(s.url);
  const r = await c.json('POST', '/admin/api/login', ADMIN, { 'x-forwarded-proto': 'https' });
  assert.equal(r.status, 200);
  assert.match(c.lastSetCookie.join(';'), /Secure/);
});

test('the session id changes at login (no fixation)', async () => {
  const c = new TestClient(s.url);
  await c.login();
  const first = c.cookieHeader();
  await c.login();
  assert.notEqual(c.cookieHeader(), first);
});

test('unknown user and wrong password give the same 401 answer; missing fields 400', async () => {
  const c = new TestClient(s.url);
  const a = await c.post('/admin/api/login', { username: 'nobody', password: 'whatever1' });
  const b = await c.post('/admin/api/login', { username: 'admin', password: 'wrong-password' });
  assert.equal(a.status, 401);
  assert.equal(b.status, 401);
  assert.deepEqual(a.body, { success: false, error: 'Invalid username or password', code: 'not_signed_in' });
  assert.deepEqual(b.body, a.body);
  const m = await c.post('/admin/api/login', { username: 'admin' });
  assert.equal(m.status, 400);
  assert.equal(m.body.success, false);
  assert.equal(m.body.code, 'invalid_input');
});

test('an inactive user cannot sign in', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const created = await admin.post('/admin/api/users', { username: 'sleepy', email: 's@example.com', full_name: 'Sleepy', password: 'password-1', is_active: false });
  assert.equal(created.status, 201);
  const r = await new TestClient(s.url).post('/admin/api/login', { username: 'sleepy', password: 'password-1' });
  assert.equal(r.status, 401);
  assert.equal(r.body.error, 'Invalid username or password');
});

test('deactivating a user ends their current session', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const fam = await userClient(s.url, admin, 'family', 'famsession');
  assert.equal((await fam.get('/admin/api/me')).status, 200);
  const list = await admin.get('/admin/api/users');
  const id = list.body.users.find((u: any) => u.username === 'famsession').id;
  assert.equal((await admin.post(`/admin/api/users/${id}/toggle-active`)).status, 200);
  assert.equal((await fam.get('/admin/api/me')).status, 401);
});

test('10 failures for one username give 429 until the window passes; a success does not count', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  await admin.post('/admin/api/users', { username: 'target', email: 't@example.com', full_name: 'T', password: 'password-t' });
  // Different client addresses (X-Forwarded-For with TRUST_PROXY) to isolate the per-username limit.
  for (let i = 0; i < 10; i++) {
    const r = await admin.json('POST', '/admin/api/login', { username: 'target', password: 'bad-bad-bad' }, { 'x-forwarded-for': `10.0.0.${i}` });
    assert.equal(r.status, 401);
  }
  const blocked = await new TestClient(s.url).json('POST', '/admin/api/login', { username: 'target', password: 'password-t' }, { 'x-forwarded-for': '10.0.1.1' });
  assert.equal(blocked.status, 429);
  assert.equal(blocked.body.success, false);
  assert.equal(blocked.body.code, 'rate_limited');
  assert.match(blocked.body.error, /Too many failed sign-in attempts/);
  assert.equal(blocked.body.retry_after, undefined, 'the wait travels as a header, not in the body');
  assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
});

test('10 failures from one client address give 429 for any username', async () => {
  const c = new TestClient(s.url);
  const ip = { 'x-forwarded-for': '192.0.2.77' };
  for (let i = 0; i < 10; i++) {
    assert.equal((await c.json('POST', '/admin/api/login', { username: `u${i}`, password: 'nope-nope' }, ip)).status, 401);
  }
  const r = await c.json('POST', '/admin/api/login', ADMIN, ip);
  assert.equal(r.status, 429);
  // Another address is not affected.
  assert.equal((await c.json('POST', '/admin/api/login', ADMIN, { 'x-forwarded-for': '192.0.2.78' })).status, 200);
});

test('logout ends the session', async () => {
  const c = new TestClient(s.url);
  await c.login();
  assert.equal((await c.get('/admin/api/me')).status, 200);
  const out = await c.post('/admin/api/logout');
  assert.equal(out.status, 200);
  const me = await c.get('/admin/api/me');
  assert.equal(me.status, 401);
  assert.equal(me.body.code, 'not_signed_in');
});

test('state-changing admin calls from a foreign Origin are refused', async () => {
  const c = new TestClient(s.url);
  await c.login();
  const foreign = await c.json('POST', '/admin/api/users', { username: 'evil1' }, { origin: 'https://evil.example' });
  assert.equal(foreign.status, 403);
  assert.equal(foreign.body.success, false);
  assert.equal(foreign.body.code, 'forbidden');
  const crossSite = await c.json('POST', '/admin/api/logout', undefined, { 'sec-fetch-site': 'cross-site' });
  assert.equal(crossSite.status, 403);
  assert.equal((await c.get('/admin/api/me')).status, 200, 'still signed in');
  const same = await c.json('PUT', '/admin/api/settings', { welcome_message: 'Hello' }, { origin: s.url });
  assert.equal(same.status, 200);
});

test('the session survives a server restart on the same DATA_DIR', async () => {
  const s1 = await startTestServer();
  const c = new TestClient(s1.url);
  await c.login();
  const cookie = c.cookieHeader();
  await s1.close();
  const s2 = await startTestServer({}, s1.dataDir);
  const res = await fetch(s2.url + '/admin/api/me', { headers: { cookie } });
  assert.equal(res.status, 200);
  assert.equal((await res.json()).user.username, 'admin');
  // Expired rows are purged at start.
  s2.writable().prepare('UPDATE sessions SET expires = 1').run();
  assert.ok((await s2.ctx.sessions.purgeExpired()) >= 1);
  assert.equal((s2.ctx.sqlite.prepare('SELECT COUNT(*) AS n FROM sessions').get() as any).n, 0);
  await s2.close();
});

test('without ADMIN_PASSWORD a strong password is generated and never stored in clear', async () => {
  const s2 = await startTestServer({ ADMIN_PASSWORD: '' });
  const row = s2.ctx.sqlite.prepare('SELECT password_hash FROM users').get() as any;
  assert.match(row.password_hash, /^\$argon2id\$/);
  await s2.close();
});
