import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { base32Encode, hotp, totp } from '../../server/security/totp.js';
import { ADMIN, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ TRUST_PROXY: 'true' });
});
after(() => s.close());

/** Each test signs in from an address of its own: the per-address limit stays its own. */
let nextAddress = 10;
function client(): TestClient & { from: string } {
  const c = new TestClient(s.url) as TestClient & { from: string };
  c.from = `198.51.100.${nextAddress++}`;
  const json = c.json.bind(c);
  c.json = (method, p, body, headers = {}) => json(method, p, body, { 'x-forwarded-for': c.from, ...headers });
  return c;
}

/** A new account of `role` with authenticator codes on; its secret and recovery codes. */
async function accountWithCodes(role: 'admin' | 'family' = 'family') {
  const admin = client();
  await admin.login();
  const username = `${role}${Math.floor(Math.random() * 1e6)}`;
  const password = 'a-long-password';
  const created = await admin.post('/admin/api/users', { username, email: `${username}@example.com`, full_name: 'Someone', role, password });
  assert.equal(created.status, 201);
  const c = client();
  assert.equal((await c.post('/admin/api/login', { username, password })).status, 200);
  const setup = await c.post('/admin/api/security/two-step/setup');
  assert.equal(setup.status, 200);
  assert.match(setup.body.secret, /^[A-Z2-7]{32}$/);
  assert.match(setup.body.otpauth_url, new RegExp(`^otpauth://totp/.*${username}\\?secret=${setup.body.secret}&issuer=.*&algorithm=SHA1&digits=6&period=30$`));
  assert.match(setup.body.qr_svg, /^<svg/);
  const enabled = await c.post('/admin/api/security/two-step/enable', { code: codeAt(setup.body.secret) });
  assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
  return { username, password, secret: setup.body.secret as string, recovery: enabled.body.recovery_codes as string[], id: created.body.user.id as number };
}

test('the server computes RFC 6238 and RFC 4226 test vectors', () => {
  const secret = base32Encode(Buffer.from('12345678901234567890'));
  assert.equal(hotp(Buffer.from('12345678901234567890'), 0), '755224');
  assert.equal(hotp(Buffer.from('12345678901234567890'), 9), '520489');
  // RFC 6238 appendix B (SHA-1), last six digits.
  assert.equal(totp(secret, 59_000), '287082');
  assert.equal(totp(secret, 1111111109_000), '081804');
  assert.equal(totp(secret, 2000000000_000), '279037');
  assert.equal(totp(secret, 1234567890_000), codeAt(secret, 1234567890_000));
});

test('turning codes on takes a code from the new secret and gives 10 different one-time recovery codes', async () => {
  const a = await accountWithCodes();
  assert.equal(a.recovery.length, 10);
  assert.equal(new Set(a.recovery).size, 10);
  for (const code of a.recovery) assert.match(code, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
  // Only hashes are stored.
  const rows = s.ctx.sqlite.prepare('SELECT code_hash FROM recovery_codes WHERE user_id = ?').all(a.id) as { code_hash: string }[];
  assert.equal(rows.length, 10);
  for (const r of rows) assert.ok(!a.recovery.some((c) => r.code_hash.includes(c.replace('-', ''))));
});

test('a wrong code does not turn codes on', async () => {
  const c = client();
  await c.login();
  const setup = await c.post('/admin/api/security/two-step/setup');
  const wrong = String((Number(codeAt(setup.body.secret)) + 1) % 1_000_000).padStart(6, '0');
  const r = await c.post('/admin/api/security/two-step/enable', { code: wrong });
  assert.equal(r.status, 400);
  const st = await c.get('/admin/api/security');
  assert.equal(st.body.two_step.enabled, false);
});

test('with codes on, the right password answers needs_code and a session that can do nothing yet', async () => {
  const a = await accountWithCodes();
  const c = client();
  const r = await c.post('/admin/api/login', { username: a.username, password: a.password });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { success: true, needs_code: true });
  for (const p of ['/admin/api/me', '/admin/api/dashboard', '/admin/api/photos', '/admin/api/security']) {
    assert.equal((await c.get(p)).status, 401, p);
  }
  // The code from the authenticator (the next step's: the one that turned codes on was used up).
  const done = await c.post('/admin/api/login/code', { code: codeAt(a.secret, Date.now() + 30_000) });
  assert.equal(done.status, 200, JSON.stringify(done.body));
  assert.equal(done.body.user.username, a.username);
  assert.equal((await c.get('/admin/api/me')).status, 200);
  assert.equal((await c.get('/admin/api/dashboard')).status, 200);
});

test('an authenticator code signs in once: the same code again is refused', async () => {
  const a = await accountWithCodes();
  const code = codeAt(a.secret, Date.now() + 30_000);
  const first = client();
  await first.post('/admin/api/login', { username: a.username, password: a.password });
  assert.equal((await first.post('/admin/api/login/code', { code })).status, 200);
  const second = client();
  await second.post('/admin/api/login', { username: a.username, password: a.password });
  const again = await second.post('/admin/api/login/code', { code });
  assert.equal(again.status, 401);
  assert.equal(again.body.error, 'That code is not right. Please try again.');
  assert.equal((await second.get('/admin/api/me')).status, 401);
});

test('a recovery code completes the sign-in once, and the count of those left goes down', async () => {
  const a = await accountWithCodes();
  const c = client();
  await c.post('/admin/api/login', { username: a.username, password: a.password });
  const r = await c.post('/admin/api/login/code', { code: a.recovery[3].toUpperCase() });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.recovery_codes_left, 9);
  assert.equal((await c.get('/admin/api/security')).body.two_step.recovery_codes_left, 9);

  const d = client();
  await d.post('/admin/api/login', { username: a.username, password: a.password });
  assert.equal((await d.post('/admin/api/login/code', { code: a.recovery[3] })).status, 401, 'used once already');
  assert.equal((await d.post('/admin/api/login/code', { code: a.recovery[4].replace('-', ' ') })).status, 200, 'another one works');
});

test('wrong codes count toward the sign-in limit: after 10 the account answers 429, even to the right code', async () => {
  const a = await accountWithCodes();
  const c = client();
  assert.equal((await c.post('/admin/api/login', { username: a.username, password: a.password })).body.needs_code, true);
  const right = codeAt(a.secret, Date.now() + 30_000);
  const wrong = right === '000000' ? '111111' : '000000';
  for (let i = 0; i < 10; i++) assert.equal((await c.post('/admin/api/login/code', { code: wrong })).status, 401, `try ${i + 1}`);
  const blocked = await c.post('/admin/api/login/code', { code: right });
  assert.equal(blocked.status, 429);
  assert.ok(Number(blocked.res.headers.get('retry-after')) > 0);
  // The limit is the account's, not only this address's: the password from elsewhere is refused too.
  const other = client();
  assert.equal((await other.post('/admin/api/login', { username: a.username, password: a.password })).status, 429);
});

test('the code step without a password first, or after it timed out, is 401 and says so', async () => {
  const c = client();
  const r = await c.post('/admin/api/login/code', { code: '123456' });
  assert.equal(r.status, 401);
  assert.equal(r.body.expired, true);
});

test('turning codes off or making new recovery codes needs a current code', async () => {
  const a = await accountWithCodes();
  const c = client();
  await c.post('/admin/api/login', { username: a.username, password: a.password });
  await c.post('/admin/api/login/code', { code: a.recovery[0] });
  assert.equal((await c.post('/admin/api/security/two-step/recovery-codes', { code: '000000' })).status, 401);
  const fresh = await c.post('/admin/api/security/two-step/recovery-codes', { code: a.recovery[1] });
  assert.equal(fresh.status, 200);
  assert.equal(fresh.body.recovery_codes.length, 10);
  assert.equal((await c.get('/admin/api/security')).body.two_step.recovery_codes_left, 10);
  // The old ones are gone.
  assert.equal((await c.post('/admin/api/security/two-step/disable', { code: a.recovery[2] })).status, 401);
  const off = await c.post('/admin/api/security/two-step/disable', { code: fresh.body.recovery_codes[0] });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  assert.equal(off.body.two_step.enabled, false);
  // Without codes, the password alone signs in again.
  const d = client();
  const r = await d.post('/admin/api/login', { username: a.username, password: a.password });
  assert.equal(r.body.user.username, a.username);
});

test('an admin can take away a locked-out account\'s codes; others may not', async () => {
  const a = await accountWithCodes();
  const family = client();
  await family.post('/admin/api/login', { username: a.username, password: a.password });
  await family.post('/admin/api/login/code', { code: a.recovery[0] });
  assert.equal((await family.post(`/admin/api/security/reset/${a.id}`)).status, 403);
  const admin = client();
  await admin.login(ADMIN.username, ADMIN.password);
  assert.equal((await admin.post(`/admin/api/security/reset/${a.id}`)).status, 200);
  const again = client();
  assert.equal((await again.post('/admin/api/login', { username: a.username, password: a.password })).body.user.username, a.username);
});
