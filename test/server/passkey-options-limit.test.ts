// Passkey sign-in options are limited per address, so a flood from one address cannot push an
// admin's pending sign-in out of the open ones.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { CEREMONY_MS, OPEN_LOGINS_PER_ADDRESS, Passkeys } from '../../server/security/passkeys.js';
import { SecurityRepo } from '../../server/security/security.repo.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ PUBLIC_URL: 'http://localhost:8080', TRUST_PROXY: 'true' });
});
after(() => s.close());

const options = (address: string) =>
  fetch(`${s.url}/admin/api/login/passkey/options`, { method: 'POST', headers: { 'x-forwarded-for': address, 'x-forwarded-host': 'localhost:8080' } });

test('one address gets at most 10 open sign-in options; then 429 with Retry-After, while other addresses go on', async () => {
  for (let i = 0; i < OPEN_LOGINS_PER_ADDRESS; i++) {
    const r = await options('203.0.113.50');
    assert.equal(r.status, 200);
    assert.ok((await r.json()).options.challenge);
  }
  const refused = await options('203.0.113.50');
  assert.equal(refused.status, 429);
  const retry = Number(refused.headers.get('retry-after'));
  assert.ok(retry > 0 && retry <= CEREMONY_MS / 1000, `Retry-After ${retry}`);
  const body = await refused.json();
  assert.equal(body.code, 'rate_limited');
  assert.match(body.error, /passkey/i);
  // An IPv6 client is one /64: changing the last bits does not give it more.
  for (let i = 0; i < OPEN_LOGINS_PER_ADDRESS; i++) assert.equal((await options(`2001:db8:1:2::${i + 1}`)).status, 200);
  assert.equal((await options('2001:db8:1:2:ffff::9')).status, 429);
  assert.equal((await options('203.0.113.51')).status, 200, 'another address is not held back');
});

test("an admin's pending sign-in survives a flood of options from another address; expired ones free the address again", async () => {
  let now = Date.parse('2026-06-06T18:00:00Z');
  const passkeys = new Passkeys(new SecurityRepo(s.ctx.db), () => now);
  const rp = { rpID: 'localhost', origin: 'http://localhost:8080' };
  const admins = await passkeys.authenticationOptions(rp, '198.51.100.7');
  let refused = 0;
  for (let i = 0; i < 10_050; i++) {
    try {
      await passkeys.authenticationOptions(rp, '192.0.2.66');
    } catch (e) {
      assert.equal((e as { code?: string }).code, 'rate_limited');
      refused++;
    }
  }
  assert.equal(refused, 10_050 - OPEN_LOGINS_PER_ADDRESS);
  const open = (passkeys as unknown as { openLogins: Map<string, unknown> }).openLogins;
  assert.ok(open.has(admins.challenge), "the admin's challenge is still open");
  now += CEREMONY_MS + 1;
  await passkeys.authenticationOptions(rp, '192.0.2.66');
  assert.equal(open.size, 1, 'the expired ones are gone and the address may ask again');
});
