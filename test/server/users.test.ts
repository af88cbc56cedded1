import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serverWithAdmin, startTestServer, TestClient, userClient, type TestServer } from '../helpers/server.js';

let s: TestServer;
let admin: TestClient;
before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

const valid = (username: string) => ({ username, email: `${username}@example.com`, full_name: 'Test Person', role: 'family', password: 'password-123' });

describe('who may call the users routes', () => {
  test('no session gets 401 on every users route', async () => {
    const guest = new TestClient(s.url);
    const calls = [guest.get('/admin/api/users'), guest.post('/admin/api/users', valid('g1')), guest.put('/admin/api/users/1', { full_name: 'x' }), guest.del('/admin/api/users/1'), guest.post('/admin/api/users/1/toggle-active')];
    for (const r of await Promise.all(calls)) {
      assert.equal(r.status, 401);
      assert.equal(r.body.success, false);
      assert.equal(r.body.code, 'not_signed_in');
    }
  });

  for (const role of ['family', 'bride', 'groom'] as const) {
    test(`${role} gets 403 "Insufficient permissions. Admin role required." on every users route`, async () => {
      const c = await userClient(s.url, admin, role);
      const calls = [c.get('/admin/api/users'), c.post('/admin/api/users', valid(`${role}x`)), c.put('/admin/api/users/1', { full_name: 'x' }), c.del('/admin/api/users/1'), c.post('/admin/api/users/1/toggle-active')];
      for (const r of await Promise.all(calls)) {
        assert.equal(r.status, 403);
        assert.deepEqual(r.body, { success: false, error: 'Insufficient permissions. Admin role required.', code: 'forbidden' });
      }
      const me = await c.get('/admin/api/me');
      assert.equal(me.body.user.role, role);
      assert.equal(me.body.user_permissions.can_manage_users, false);
      assert.equal(me.body.user_permissions.is_admin, false);
      assert.equal(me.body.user_permissions.can_moderate_photos, role !== 'family');
    });
  }

  test('admin can list, create, edit, toggle and delete', async () => {
    const created = await admin.post('/admin/api/users', valid('lifecycle'));
    assert.equal(created.status, 201);
    const u = created.body.user;
    assert.equal(u.username, 'lifecycle');
    assert.equal(u.role, 'family');
    assert.equal(u.is_active, true);
    assert.equal(u.last_login, null);
    assert.equal(u.password_hash, undefined, 'the hash never leaves the server');
    const list = await admin.get('/admin/api/users');
    assert.ok(list.body.users.some((x: any) => x.id === u.id));
    const edited = await admin.put(`/admin/api/users/${u.id}`, { full_name: 'Renamed', role: 'groom' });
    assert.equal(edited.status, 200);
    assert.equal(edited.body.user.full_name, 'Renamed');
    assert.equal(edited.body.user.role, 'groom');
    const toggled = await admin.post(`/admin/api/users/${u.id}/toggle-active`);
    assert.equal(toggled.body.user.is_active, false);
    const back = await admin.post(`/admin/api/users/${u.id}/toggle-active`);
    assert.equal(back.body.user.is_active, true);
    const del = await admin.del(`/admin/api/users/${u.id}`);
    assert.equal(del.status, 200);
    assert.equal((await admin.del(`/admin/api/users/${u.id}`)).status, 404);
    const act = s.ctx.sqlite.prepare("SELECT * FROM activity WHERE type = 'user_created' AND description LIKE '%lifecycle%'").get() as any;
    assert.equal(act.user_name, 'admin');
  });
});

describe('validation (SPEC §5, CONTRACT)', () => {
  test('create requires username, full name, email and password', async () => {
    for (const field of ['username', 'full_name', 'email', 'password']) {
      const body: Record<string, unknown> = valid(`req${field.length}`);
      delete body[field];
      const r = await admin.post('/admin/api/users', body);
      assert.equal(r.status, 400, field);
      assert.equal(r.body.success, false);
      assert.equal(r.body.code, 'invalid_input');
      assert.match(r.body.error, /required/);
    }
  });

  test('email format, password length, role and username shape are checked', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ email: 'not-an-email' }, /Email/],
      [{ password: 'short' }, /at least 8/],
      [{ role: 'owner' }, /Role/],
      [{ username: 'a b' }, /Username/],
      [{ is_active: 'yes' }, /is_active/],
    ];
    for (const [patch, msg] of cases) {
      const r = await admin.post('/admin/api/users', { ...valid('shape'), ...patch });
      assert.equal(r.status, 400, JSON.stringify(patch));
      assert.match(r.body.error, msg);
      assert.equal(r.body.code, 'invalid_input');
      assert.ok(Array.isArray(r.body.problems), 'each problem is listed');
    }
  });

  test('new users default to role family and active', async () => {
    const { role: _r, ...rest } = valid('defaults');
    const r = await admin.post('/admin/api/users', rest);
    assert.equal(r.status, 201);
    assert.equal(r.body.user.role, 'family');
    assert.equal(r.body.user.is_active, true);
  });

  test('a taken username is 409, case-insensitively', async () => {
    assert.equal((await admin.post('/admin/api/users', valid('taken'))).status, 201);
    const r = await admin.post('/admin/api/users', valid('TAKEN'));
    assert.equal(r.status, 409);
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'conflict');
    assert.match(r.body.error, /already taken/);
    const other = await admin.post('/admin/api/users', valid('nottaken'));
    const rename = await admin.put(`/admin/api/users/${other.body.user.id}`, { username: 'taken' });
    assert.equal(rename.status, 409);
  });

  test('a blank password on edit keeps the current one; a new one replaces it', async () => {
    const r = await admin.post('/admin/api/users', valid('pwkeep'));
    const id = r.body.user.id;
    assert.equal((await admin.put(`/admin/api/users/${id}`, { full_name: 'Kept', password: '' })).status, 200);
    const c = new TestClient(s.url);
    await c.login('pwkeep', 'password-123');
    assert.equal((await admin.put(`/admin/api/users/${id}`, { password: 'brand-new-pass' })).status, 200);
    assert.equal((await new TestClient(s.url).post('/admin/api/login', { username: 'pwkeep', password: 'password-123' })).status, 401);
    await new TestClient(s.url).login('pwkeep', 'brand-new-pass');
  });

  test('unknown and malformed ids', async () => {
    const missing = await admin.put('/admin/api/users/99999', { full_name: 'x' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
    const malformed = await admin.put('/admin/api/users/abc', { full_name: 'x' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 'invalid_input');
    assert.equal((await admin.post('/admin/api/users/99999/toggle-active')).status, 404);
  });
});

describe('last-admin and self protections', () => {
  test('the last active admin cannot be deleted, deactivated or demoted; nobody deletes themself', async () => {
    const s2 = await startTestServer();
    const a = new TestClient(s2.url);
    await a.login();
    const me = (await a.get('/admin/api/me')).body.user;
    const lastAdmin = await a.del(`/admin/api/users/${me.id}`);
    assert.equal(lastAdmin.status, 409);
    assert.equal(lastAdmin.body.code, 'conflict');
    assert.equal((await a.put(`/admin/api/users/${me.id}`, { role: 'family' })).status, 409);
    assert.equal((await a.put(`/admin/api/users/${me.id}`, { is_active: false })).status, 409);
    assert.equal((await a.post(`/admin/api/users/${me.id}/toggle-active`)).status, 409);
    // With a second admin, the first may be demoted by the second, but still not delete themself.
    const second = await a.post('/admin/api/users', { ...valid('second'), role: 'admin' });
    assert.equal((await a.del(`/admin/api/users/${me.id}`)).status, 409, 'no self-delete');
    const b = new TestClient(s2.url);
    await b.login('second', 'password-123');
    assert.equal((await b.put(`/admin/api/users/${me.id}`, { role: 'family' })).status, 200);
    // Now "second" is the last admin: the demoted one cannot remove it (not admin any more), and it cannot demote itself.
    assert.equal((await b.put(`/admin/api/users/${second.body.user.id}`, { role: 'bride' })).status, 409);
    await s2.close();
  });
});
