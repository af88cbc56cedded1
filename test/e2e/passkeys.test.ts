import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { launchBrowser, ServerProcess } from '../helpers/browser.js';
import { ADMIN, TestClient } from '../helpers/server.js';

// Passkeys need a secure context: http://localhost is one, http://127.0.0.1 is not a valid relying party.
let browser: Browser;
let srv: ServerProcess;
let base: string;
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  base = srv.url.replace('127.0.0.1', 'localhost');
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

/** A page with Chromium's virtual authenticator: internal (platform), resident keys, user verification. */
async function pageWithAuthenticator(): Promise<{ context: BrowserContext; page: Page; cdp: CDPSession; authenticatorId: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto(base + '/admin/login');
  return { context, page, cdp, authenticatorId };
}

/** fetch from inside the page (its cookies, its origin). */
function call(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([method, path, body]) => {
      const res = await fetch(path as string, { method: method as string, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    [method, path, body] as const,
  );
}

/** Adds a passkey the way the security page does: options from the server, the browser's ceremony, the answer back. */
async function addPasskey(page: Page, name: string): Promise<{ status: number; body: any }> {
  return page.evaluate(async (name) => {
    const opt = await (await fetch('/admin/api/security/passkeys/options', { method: 'POST' })).json();
    const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(opt.options);
    const cred = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential;
    const res = await fetch('/admin/api/security/passkeys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response: cred.toJSON(), name }) });
    return { status: res.status, body: await res.json() };
  }, name);
}

/** Signs in with a passkey, with no username: the browser picks this site's discoverable credential. */
async function passkeySignIn(page: Page): Promise<{ status: number; body: any }> {
  return page.evaluate(async () => {
    const opt = await (await fetch('/admin/api/login/passkey/options', { method: 'POST' })).json();
    if (!opt.options) return { status: 0, body: opt };
    const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(opt.options);
    const cred = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential;
    const res = await fetch('/admin/api/login/passkey', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ response: cred.toJSON() }) });
    return { status: res.status, body: await res.json() };
  });
}

test('a signed-in admin adds a discoverable passkey and signs in with it later without typing a username', async () => {
  const { context, page, cdp, authenticatorId } = await pageWithAuthenticator();
  assert.equal((await call(page, 'POST', '/admin/api/login', ADMIN)).status, 200);
  const status = await call(page, 'GET', '/admin/api/security');
  assert.deepEqual(status.body.passkey_support, { available: true, reason: null, rp_id: 'localhost', use_at: null });

  const added = await addPasskey(page, 'Test phone');
  assert.equal(added.status, 201, JSON.stringify(added.body));
  assert.equal(added.body.passkeys.length, 1);
  assert.equal(added.body.passkeys[0].name, 'Test phone');
  // The authenticator holds it as a resident (discoverable) credential for this site.
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  assert.equal(credentials[0].rpId, 'localhost');
  assert.ok(credentials[0].userHandle, 'a user handle, not the username');
  assert.notEqual(Buffer.from(credentials[0].userHandle!, 'base64').toString(), 'admin');

  assert.equal((await call(page, 'POST', '/admin/api/logout')).status, 200);
  assert.equal((await call(page, 'GET', '/admin/api/me')).status, 401);
  const signedIn = await passkeySignIn(page);
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  assert.equal(signedIn.body.user.username, 'admin');
  const me = await call(page, 'GET', '/admin/api/me');
  assert.equal(me.status, 200);
  assert.equal(me.body.user.username, 'admin');
  // The sign count moved on and the use is stamped.
  const after = await call(page, 'GET', '/admin/api/security');
  assert.ok(after.body.passkeys[0].last_used_at);

  const audit = await call(page, 'GET', '/admin/api/audit?limit=10');
  const actions = audit.body.entries.map((e: any) => [e.action, e.detail?.method ?? e.detail?.name ?? null]);
  assert.deepEqual(actions.slice(0, 3), [['sign_in', 'passkey'], ['sign_out', null], ['passkey.add', 'Test phone']]);
  await context.close();
});

test('a passkey is renamed and removed; once removed it signs nobody in', async () => {
  const { context, page } = await pageWithAuthenticator();
  assert.equal((await call(page, 'POST', '/admin/api/login', ADMIN)).status, 200);
  const added = await addPasskey(page, 'Laptop');
  assert.equal(added.status, 201);
  const id = added.body.passkeys.find((p: any) => p.name === 'Laptop').id;
  const renamed = await call(page, 'PATCH', `/admin/api/security/passkeys/${encodeURIComponent(id)}`, { name: 'Work laptop' });
  assert.equal(renamed.status, 200);
  assert.ok(renamed.body.passkeys.some((p: any) => p.name === 'Work laptop'));
  assert.equal((await call(page, 'PATCH', `/admin/api/security/passkeys/${encodeURIComponent(id)}`, { name: '  ' })).status, 400);
  const removed = await call(page, 'DELETE', `/admin/api/security/passkeys/${encodeURIComponent(id)}`);
  assert.equal(removed.status, 200);
  assert.equal(removed.body.passkeys.some((p: any) => p.id === id), false);

  await call(page, 'POST', '/admin/api/logout');
  const r = await passkeySignIn(page);
  assert.equal(r.status, 401);
  assert.equal((await call(page, 'GET', '/admin/api/me')).status, 401);
  await context.close();
});

test('another user cannot rename or remove someone else\'s passkey', async () => {
  const { context, page } = await pageWithAuthenticator();
  await call(page, 'POST', '/admin/api/login', ADMIN);
  const id = (await addPasskey(page, 'Mine')).body.passkeys.find((p: any) => p.name === 'Mine').id;
  const admin = new TestClient(srv.url);
  await admin.login();
  const created = await admin.post('/admin/api/users', { username: 'aunt_may', email: 'may@example.com', full_name: 'May', role: 'family', password: 'password-may' });
  assert.equal(created.status, 201);
  const may = new TestClient(srv.url);
  await may.login('aunt_may', 'password-may');
  assert.equal((await may.json('PATCH', `/admin/api/security/passkeys/${encodeURIComponent(id)}`, { name: 'Stolen' })).status, 404);
  assert.equal((await may.del(`/admin/api/security/passkeys/${encodeURIComponent(id)}`)).status, 404);
  assert.ok((await call(page, 'GET', '/admin/api/security')).body.passkeys.some((p: any) => p.id === id && p.name === 'Mine'));
  await context.close();
});

test('at an address that cannot use passkeys the server says why instead of offering them', async () => {
  // 127.0.0.1 over plain HTTP: not HTTPS, and an IP address is never a relying party.
  const c = new TestClient(srv.url);
  const r = await c.post('/admin/api/login/passkey/options');
  assert.equal(r.status, 200);
  assert.equal(r.body.options, null);
  assert.deepEqual(r.body.passkey_support, { available: false, reason: 'insecure', rp_id: null, use_at: null });
});
