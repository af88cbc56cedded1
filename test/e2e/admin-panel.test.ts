import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot, ServerProcess, uiLogin } from '../helpers/browser.js';
import { ADMIN, TestClient, userClient } from '../helpers/server.js';

/** Sign-in, roles, users and settings in real Chromium against the built server. */
describe('admin panel in a browser', () => {
  const server = new ServerProcess();
  let browser: Browser;

  before(async () => {
    await server.start();
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await server.stop();
  });

  test('a wrong password shows the server\'s alert above the form', async () => {
    const { page, context } = await newPage(browser);
    await page.goto(server.url + '/admin/login');
    await page.getByPlaceholder('Enter your username').fill(ADMIN.username);
    await page.getByPlaceholder('Enter your password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Invalid username or password' });
    await alert.waitFor();
    assert.ok(page.url().endsWith('/admin/login'));
    await screenshot(page, 'admin-login-error');
    await context.close();
  });

  test('login opens the dashboard; logout returns to the login page and the session is gone', async () => {
    const { page, context } = await newPage(browser);
    await uiLogin(page, server.url);
    await page.getByRole('heading', { name: /Welcome back/ }).waitFor();
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL('**/admin/login');
    await page.goto(server.url + '/admin/dashboard');
    await page.waitForURL('**/admin/login');
    await page.getByRole('heading', { name: 'Admin Login' }).waitFor();
    await context.close();
  });

  test('a family user sees no Users entry, no Manage Users, and cannot use /admin/users', async () => {
    const admin = new TestClient(server.url);
    await admin.login();
    await userClient(server.url, admin, 'family', 'cousin');
    const { page, context } = await newPage(browser);
    await uiLogin(page, server.url, 'cousin', 'password-family');
    await page.getByRole('heading', { name: /Welcome back, family person/ }).waitFor();
    await page.getByRole('link', { name: 'Manage Photos' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Users', exact: true }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Manage Users' }).count(), 0);
    assert.equal(await page.getByTestId('stat-total-users').count(), 0);
    await page.goto(server.url + '/admin/users');
    await page.getByText('Insufficient permissions. Admin role required.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Create New User' }).count(), 0);
    await screenshot(page, 'admin-family-users-denied');
    await context.close();
  });

  test('users: create, edit, deactivate and delete through the modals', async () => {
    const { page, context } = await newPage(browser);
    page.on('dialog', (d) => void d.accept());
    await uiLogin(page, server.url);
    await page.getByRole('link', { name: 'Manage Users' }).click();
    await page.waitForURL('**/admin/users');
    const heading = page.getByRole('heading', { name: /^Users \(\d+\)$/ });
    await heading.waitFor();
    const before = Number((await heading.innerText()).match(/\d+/)![0]);

    await page.getByRole('button', { name: 'Create New User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('Username').fill('grandma');
    await dialog.getByLabel('Full Name').fill('Grandma Rose');
    await dialog.getByLabel('Email').fill('rose@example.com');
    await dialog.getByLabel('Password').fill('knitting-needles-42');
    assert.equal(await dialog.getByLabel('Role').inputValue(), 'family');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await page.getByText('User created').waitFor();
    await page.getByRole('heading', { name: `Users (${before + 1})` }).waitFor();
    const row = page.locator('tr[data-username="grandma"]');
    assert.match(await row.innerText(), /Grandma Rose[\s\S]*rose@example\.com[\s\S]*family[\s\S]*Active[\s\S]*Never/i);
    await screenshot(page, 'admin-users');

    await row.getByRole('button', { name: 'Edit grandma' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await edit.getByLabel('Full Name').fill('Grandma Rose Smith');
    await edit.getByLabel('Role').selectOption('groom');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('User updated').waitFor();
    await row.getByText('Grandma Rose Smith').waitFor();
    await row.locator('.role-groom').waitFor();
    // The blank password was not sent: the old one still signs in.
    await new TestClient(server.url).login('grandma', 'knitting-needles-42');

    await row.getByRole('button', { name: 'Deactivate grandma' }).click();
    await page.getByText('User status updated').first().waitFor();
    await row.getByText('Inactive').waitFor();
    const blocked = await new TestClient(server.url).post('/admin/api/login', { username: 'grandma', password: 'knitting-needles-42' });
    assert.equal(blocked.status, 401);

    await row.getByRole('button', { name: 'Delete grandma' }).click();
    await page.getByText('User deleted').waitFor();
    await page.getByRole('heading', { name: `Users (${before})` }).waitFor();
    assert.equal(await row.count(), 0);
    await context.close();
  });

  test('settings edited in /admin/settings show on the home page', async () => {
    const { page, context } = await newPage(browser);
    await uiLogin(page, server.url);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/admin/settings');
    await page.getByLabel('First name', { exact: true }).fill('Olivia');
    await page.getByLabel('Second name', { exact: true }).fill('Noah');
    await page.getByLabel('Welcome message', { exact: true }).fill('Welcome to our garden wedding!');
    await page.locator('#st-0-venue').fill('The Old Boathouse');
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByText('Settings saved').waitFor();
    await screenshot(page, 'admin-settings');
    // Server validation is shown as it comes.
    await page.getByLabel('First name', { exact: true }).fill('x'.repeat(61));
    await page.getByRole('button', { name: 'Save' }).first().click();
    await page.getByRole('alert').filter({ hasText: 'The first name must be at most 60 characters' }).waitFor();

    const guest = await newPage(browser);
    await guest.page.goto(server.url + '/');
    await guest.page.getByText('Olivia and Noah').first().waitFor();
    await guest.page.getByText('Welcome to our garden wedding!').waitFor();
    await guest.page.getByText('The Old Boathouse').first().waitFor();
    await guest.context.close();
    await context.close();
  });

  test('a moderator on a phone: menu at 390x844 toggles and closes after a choice; queue targets are large', async () => {
    const { page, context } = await newPage(browser, { width: 390, height: 844 });
    await uiLogin(page, server.url);
    const nav = page.getByRole('navigation', { name: 'Admin' });
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    assert.equal(await nav.isVisible(), false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await nav.waitFor({ state: 'visible' });
    await screenshot(page, 'admin-mobile-menu');
    await nav.getByRole('link', { name: 'Photos' }).click();
    await page.waitForURL('**/admin/photos');
    await nav.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Approval Queue' }).click();
    await page.getByText('All caught up! No photos pending approval.').waitFor();
    for (const name of ['All Photos', 'Approval Queue', 'Open menu']) {
      const box = (await page.getByRole('button', { name }).boundingBox())!;
      assert.ok(box.height >= 44 && box.width >= 44, `${name} is ${box.width}x${box.height}`);
    }
    await screenshot(page, 'admin-mobile-queue');
    await context.close();
  });
});
