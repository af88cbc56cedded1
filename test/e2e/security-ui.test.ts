import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, ServerProcess, uiLogin } from '../helpers/browser.js';
import { ADMIN } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';

// Passkeys need a secure context: http://localhost is one (127.0.0.1 is not a valid relying party).
let browser: Browser;
let srv: ServerProcess;
let base: string;
let hook: http.Server;
const hookBodies: any[] = [];
before(async () => {
  [browser, srv] = await Promise.all([launchBrowser(), new ServerProcess().start()]);
  base = srv.url.replace('127.0.0.1', 'localhost');
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hookBodies.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
});
after(async () => {
  await browser?.close();
  await srv?.stop();
  await new Promise((r) => hook?.close(r));
});

/** A page whose browser holds Chromium's virtual platform authenticator (resident keys, user verification). */
async function pageWithAuthenticator(): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  return page;
}

async function api(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async ([method, path, body]) => {
      const res = await fetch(path as string, { method: method as string, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: await res.json() };
    },
    [method, path, body] as const,
  );
}

async function logout(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL('**/admin/login');
}

let adminPage: Page;

test('an admin adds a passkey on /admin/security and later signs in with it from the login page without a username', async () => {
  adminPage = await pageWithAuthenticator();
  const page = adminPage;
  await uiLogin(page, base);
  await page.getByRole('link', { name: 'Security' }).click();
  await page.waitForURL('**/admin/security');
  await page.getByText('You have no passkeys yet.').waitFor();
  await page.getByLabel('Name').fill('My laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByText('My laptop').waitFor();

  // Renamed in place.
  await page.getByRole('button', { name: 'Rename My laptop' }).click();
  await page.locator('.security-item input').fill('Work laptop');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Work laptop').waitFor();

  await logout(page);
  // No username or password typed: the browser's passkey signs in.
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL('**/admin/dashboard');
  const me = await api(page, 'GET', '/admin/api/me');
  assert.equal(me.body.user.username, ADMIN.username);
});

test('the audit log page lists the passkey and sign-in entries, filters by action and pages', async () => {
  const page = adminPage;
  await page.getByRole('link', { name: 'Audit log' }).click();
  await page.waitForURL('**/admin/audit');
  const table = page.locator('.audit-table');
  await table.waitFor();
  const actions = await table.locator('tbody code').allTextContents();
  for (const a of ['passkey.add', 'passkey.rename', 'sign_in', 'sign_out']) assert.ok(actions.includes(a), `${a} in ${actions.join(', ')}`);
  await page.getByLabel('Action').selectOption('passkey.rename');
  await page.waitForFunction(() => [...document.querySelectorAll('.audit-table tbody code')].every((c) => c.textContent === 'passkey.rename'));
  assert.equal(await table.locator('tbody tr').count(), 1);
  assert.match((await page.getByTestId('audit-range').textContent()) ?? '', /1–1 of 1/);
  assert.equal(await page.getByRole('button', { name: 'Older' }).isDisabled(), true);
});

test('a test notification from the settings page reaches a webhook and the page says it was sent', async () => {
  const page = adminPage;
  await page.goto(base + '/admin/settings');
  const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook/secret-token`;
  await page.getByLabel('Webhook address').fill(url);
  await page.getByRole('button', { name: 'Send a test' }).click();
  await page.getByTestId('notify-results').getByText('Webhook: sent').waitFor();
  assert.equal(hookBodies.at(-1).event, 'test');
  assert.match(hookBodies.at(-1).text, /test from your wedding website/);
  // Saved, the token is masked in what the page reads back.
  await page.getByRole('button', { name: 'Save' }).first().click();
  await page.getByText('Settings saved').first().waitFor();
  await page.reload();
  const shown = await page.getByLabel('Webhook address').inputValue();
  assert.ok(!shown.includes('secret-token'), shown);
});

test('a user sets up authenticator codes with the QR page, gets 10 recovery codes once, then signs in with a recovery code and with the app code', async () => {
  const username = `sam${Date.now() % 1e6}`;
  const password = 'a-long-password';
  assert.equal((await api(adminPage, 'POST', '/admin/api/users', { username, email: `${username}@example.com`, full_name: 'Sam', role: 'family', password })).status, 201);
  const context = await browser.newContext();
  const page = await context.newPage();
  await uiLogin(page, base, username, password);
  await page.goto(base + '/admin/security');
  await page.getByRole('button', { name: 'Set up authenticator codes' }).click();
  const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  assert.match((await qr.getAttribute('src')) ?? '', /^data:image\/svg\+xml/);
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('The 6-digit code the app shows now').fill(codeAt(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();
  // The codes appear once the server confirmed the code: wait for the list before reading it.
  await page.getByTestId('recovery-codes').locator('code').first().waitFor();
  const codes = await page.getByTestId('recovery-codes').locator('code').allTextContents();
  assert.equal(codes.length, 10);
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByText('Authenticator codes are on.').waitFor();
  assert.equal(await page.getByTestId('recovery-codes').count(), 0, 'the codes are not shown again');
  await logout(page);

  // Password, then a recovery code.
  await page.getByPlaceholder('Enter your username').fill(username);
  await page.getByPlaceholder('Enter your password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL('**/admin/dashboard');
  await page.getByText('You have 9 recovery codes left.').waitFor();
  await logout(page);

  // Password, then a wrong code (refused, said so), then the app's next code.
  await page.getByPlaceholder('Enter your username').fill(username);
  await page.getByPlaceholder('Enter your password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.getByLabel('Authenticator code').fill('000000' === codeAt(secret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.getByRole('alert').getByText('That code is not right. Please try again.').waitFor();
  // The set-up used this step's code; the app's next one (a step later) is accepted.
  await page.getByLabel('Authenticator code').fill(codeAt(secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL('**/admin/dashboard');
  await context.close();
});

test('with "Require two-step sign-in" on, an account without a passkey or codes is taken to set one up and can open nothing else', async () => {
  const page = adminPage;
  await page.goto(base + '/admin/settings');
  await page.getByText('Every account then needs a passkey or authenticator codes.', { exact: false }).waitFor();
  await page.getByRole('switch', { name: 'Require two-step sign-in for everyone' }).check();
  await page.getByRole('button', { name: 'Save' }).first().click();
  await page.getByText('Settings saved').first().waitFor();
  assert.equal((await api(page, 'GET', '/admin/api/settings')).body.settings.require_two_step, true);

  const username = `kim${Date.now() % 1e6}`;
  const password = 'a-long-password';
  assert.equal((await api(page, 'POST', '/admin/api/users', { username, email: `${username}@example.com`, full_name: 'Kim', role: 'family', password })).status, 201);
  const context = await browser.newContext();
  const kim = await context.newPage();
  await kim.goto(base + '/admin/login');
  await kim.getByPlaceholder('Enter your username').fill(username);
  await kim.getByPlaceholder('Enter your password').fill(password);
  await kim.getByRole('button', { name: 'Sign In', exact: true }).click();
  await kim.waitForURL('**/admin/security');
  await kim.getByTestId('setup-required').waitFor();
  // Anything else sends the account back to the set-up.
  await kim.goto(base + '/admin/photos');
  await kim.waitForURL('**/admin/security');
  assert.equal((await api(kim, 'GET', '/admin/api/photos')).status, 403);
  await context.close();
});
