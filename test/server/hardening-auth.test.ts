import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOGIN_FIELD_MAX } from '../../common/rules.js';
import { FailureLimiter } from '../../server/auth/rate-limit.js';
import { ADMIN, TestClient, userClient } from '../helpers/server.js';
import { tunnelSite } from './hardening-helpers.js';

const site = tunnelSite();

const login = (username: string, password: string, xff: string) =>
  new TestClient(site.s.url).json('POST', '/admin/api/login', { username, password }, { 'x-forwarded-for': xff });

test('20 wrong passwords at once for one username: at most 10 are checked (401), the rest are 429 with Retry-After', async () => {
  await site.admin.post('/admin/api/users', { username: 'parallel', email: 'p@example.com', full_name: 'P', password: 'password-p' });
  // Each from its own address, so only the per-username limit is at play.
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => login('parallel', 'wrong-password', `198.51.100.${i + 1}`)));
  const unauthorized = answers.filter((r) => r.status === 401).length;
  const limited = answers.filter((r) => r.status === 429);
  assert.ok(unauthorized <= 10, `${unauthorized} attempts were checked`);
  assert.equal(unauthorized + limited.length, 20);
  for (const r of limited) {
    assert.equal(r.body.code, 'rate_limited');
    assert.ok(Number(r.res.headers.get('retry-after')) > 0);
  }
  // The right password is refused too while the username is locked.
  assert.equal((await login('parallel', 'password-p', '198.51.100.99')).status, 429);
});

test('a client-sent X-Forwarded-For does not reset the per-address limit (one proxy hop is trusted)', async () => {
  // What the tunnel forwards: the client's own (made-up) header, then the address the tunnel saw.
  for (let i = 0; i < 10; i++) {
    const r = await login(`nobody${i}`, 'wrong-password', `10.9.9.${i}, 203.0.113.50`);
    assert.equal(r.status, 401);
  }
  const spoofed = await login(ADMIN.username, ADMIN.password, '10.77.77.77, 203.0.113.50');
  assert.equal(spoofed.status, 429, 'a fresh made-up address does not help');
  assert.equal(spoofed.body.code, 'rate_limited');
  // Another real address (as the tunnel saw it) signs in.
  assert.equal((await login(ADMIN.username, ADMIN.password, '10.77.77.77, 203.0.113.51')).status, 200);
});

test('a username or password over 200 characters is 400 at once, without hashing', async () => {
  const long = 'x'.repeat(LOGIN_FIELD_MAX + 1);
  for (const body of [{ username: long, password: 'whatever-pass' }, { username: 'admin', password: long }]) {
    const r = await new TestClient(site.s.url).json('POST', '/admin/api/login', body, { 'x-forwarded-for': '192.0.2.200' });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, 'invalid_input');
    assert.match(r.body.error, /at most 200 characters/);
  }
  // 200 exactly is an ordinary (wrong) sign-in.
  assert.equal((await login('y'.repeat(LOGIN_FIELD_MAX), 'wrong-password', '192.0.2.201')).status, 401);
});

test("the limiter's memory stays bounded under a spray of usernames, and a blocked key stays blocked", () => {
  let now = 1_000_000;
  const limiter = new FailureLimiter(10, 60_000, () => now, 100);
  for (let i = 0; i < 10; i++) assert.equal(limiter.attempt(['ip:attacker', 'user:admin']), 0);
  assert.ok(limiter.attempt(['ip:attacker', 'user:admin']) > 0);
  for (let i = 0; i < 5_000; i++) {
    now += 1;
    limiter.attempt([`user:spray${i}`, `ip:10.0.${i >> 8}.${i & 255}`]);
    assert.ok(limiter.size <= 101, `size ${limiter.size}`);
  }
  assert.ok(limiter.attempt(['ip:attacker']) > 0, 'the spray did not wipe out the block');
  assert.ok(limiter.attempt(['user:admin']) > 0);
  now += 60_001;
  assert.equal(limiter.attempt(['user:admin']), 0, 'the window passes');
});

test('changing your own password ends your other sessions and keeps this one', async () => {
  const desk = await userClient(site.s.url, site.admin, 'admin', 'own-pw');
  const phone = new TestClient(site.s.url);
  await phone.login('own-pw', 'password-admin');
  const id = (await desk.get('/admin/api/me')).body.user.id;
  assert.equal((await desk.put(`/admin/api/users/${id}`, { password: 'a-new-password-1' })).status, 200);
  assert.equal((await desk.get('/admin/api/me')).status, 200, 'the session that changed it stays');
  assert.equal((await phone.get('/admin/api/me')).status, 401, 'the other session ended');
  // An admin setting someone else's password ends every session of that user.
  const bride = await userClient(site.s.url, site.admin, 'bride', 'bride-pw');
  const brideId = (await bride.get('/admin/api/me')).body.user.id;
  assert.equal((await site.admin.put(`/admin/api/users/${brideId}`, { password: 'bride-new-pass' })).status, 200);
  assert.equal((await bride.get('/admin/api/me')).status, 401);
  assert.equal((await site.admin.get('/admin/api/me')).status, 200);
});

test('a session ends 30 days after sign-in however much it is used', async () => {
  const c = new TestClient(site.s.url);
  await c.login();
  const cookie = decodeURIComponent(/wedding\.sid=([^;]+)/.exec(c.cookieHeader())![1]); // s:<sid>.<signature>
  const sid = cookie.slice(2, cookie.lastIndexOf('.'));
  const row = () => site.s.ctx.sqlite.prepare('SELECT sess, expires FROM sessions WHERE sid = ?').get(sid) as { sess: string; expires: number } | undefined;
  const signedInAt = JSON.parse(row()!.sess).signedInAt as number;
  assert.ok(Math.abs(signedInAt - Date.now()) < 10_000);
  for (let i = 0; i < 3; i++) assert.equal((await c.get('/admin/api/me')).status, 200);
  assert.ok(row()!.expires <= signedInAt + 30 * 24 * 3600 * 1000, 'use never moves the end past 30 days');
  // Thirty days and a minute later (the sign-in moved back), the same cookie is signed out.
  const aged = { ...JSON.parse(row()!.sess), signedInAt: Date.now() - 30 * 24 * 3600 * 1000 - 60_000 };
  site.s.writable().prepare('UPDATE sessions SET sess = ? WHERE sid = ?').run(JSON.stringify(aged), sid);
  const me = await c.get('/admin/api/me');
  assert.equal(me.status, 401);
});

const activeAdmins = () => (site.s.ctx.sqlite.prepare("SELECT count(*) AS n FROM users WHERE role = 'admin' AND is_active = 1").get() as { n: number }).n;
const idOf = async (c: TestClient): Promise<number> => (await c.get('/admin/api/me')).body.user.id;

/** Demotes every active admin but `keep` (through `by`), and returns a function that promotes them again. */
async function onlyAdmins(by: TestClient, keep: number[]): Promise<(via: TestClient) => Promise<void>> {
  const users = (await by.get('/admin/api/users')).body.users as { id: number; role: string; is_active: boolean }[];
  const others = users.filter((u) => u.role === 'admin' && u.is_active && !keep.includes(u.id));
  for (const u of others) assert.equal((await by.put(`/admin/api/users/${u.id}`, { role: 'family' })).status, 200);
  return async (via) => {
    for (const u of others) assert.equal((await via.put(`/admin/api/users/${u.id}`, { role: 'admin' })).status, 200);
  };
}

test('two admins demoting or deactivating each other at the same moment leave one active admin', async () => {
  for (const [round, change] of [{ role: 'family' }, { is_active: false }, { role: 'groom' }].entries()) {
    const a = await userClient(site.s.url, site.admin, 'admin', `duel-a${round}`);
    const b = await userClient(site.s.url, site.admin, 'admin', `duel-b${round}`);
    const [ida, idb] = [await idOf(a), await idOf(b)];
    const restore = await onlyAdmins(a, [ida, idb]);
    // Over HTTP the second may already be refused at the door (403) once the first has won.
    const [ra, rb] = await Promise.all([a.put(`/admin/api/users/${idb}`, change), b.put(`/admin/api/users/${ida}`, change)]);
    assert.equal([ra.status, rb.status].filter((st) => st === 200).length, 1, JSON.stringify([ra.body, rb.body]));
    // 403 or 401 (a deactivated admin's sessions end) when the loser's call came after the winner's write.
    assert.ok([401, 403, 409].includes((ra.status === 200 ? rb : ra).status));
    assert.equal(activeAdmins(), 1);
    await restore(ra.status === 200 ? a : b);
  }
});

test('both changes reach the database at once: the write itself keeps the last admin', async () => {
  const users = site.s.services.users;
  for (const [round, change] of [{ role: 'family' as const }, { is_active: false }].entries()) {
    const a = await userClient(site.s.url, site.admin, 'admin', `race-a${round}`);
    const b = await userClient(site.s.url, site.admin, 'admin', `race-b${round}`);
    const [ida, idb] = [await idOf(a), await idOf(b)];
    const restore = await onlyAdmins(a, [ida, idb]);
    // Both permission checks are behind them: each call reads "two active admins" before either writes.
    const [actorA, actorB] = [(await users.sessionUser(ida))!, (await users.sessionUser(idb))!];
    const outcomes = await Promise.allSettled([users.update(idb, change, actorA), users.update(ida, change, actorB)]);
    const refused = outcomes.filter((o) => o.status === 'rejected') as PromiseRejectedResult[];
    assert.equal(refused.length, 1, JSON.stringify(outcomes));
    assert.equal(refused[0].reason.code, 'conflict');
    assert.equal(refused[0].reason.message, 'The last active admin cannot be deleted, deactivated or demoted.');
    assert.equal(activeAdmins(), 1);
    await restore(outcomes[0].status === 'fulfilled' ? a : b);
  }
});

test('deleting an admin while that admin demotes the deleter leaves one active admin', async () => {
  const a = await userClient(site.s.url, site.admin, 'admin', 'del-a');
  const [ida, idMain] = [await idOf(a), await idOf(site.admin)];
  const restore = await onlyAdmins(site.admin, [ida, idMain]);
  const users = site.s.services.users;
  const [actorMain, actorA] = [(await users.sessionUser(idMain))!, (await users.sessionUser(ida))!];
  const outcomes = await Promise.allSettled([users.delete(ida, actorMain), users.update(idMain, { role: 'family' }, actorA)]);
  assert.equal(outcomes.filter((o) => o.status === 'rejected').length, 1, JSON.stringify(outcomes));
  assert.equal(activeAdmins(), 1);
  await restore(outcomes[0].status === 'fulfilled' ? site.admin : a);
});
