import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cleanup, click, settle, control, controls, dialogs, hasText, meFor, renderAdmin, type, waitFor } from '../helpers/admin-render.js';
import { serveAs } from './admin-fixtures.js';
import { toasts } from '../../client/components/ui/toast.js';
import { editPayload, emptyUserForm } from '../../client/components/admin/UserFormModal.js';

afterEach(cleanup);

const input = (page: Element, sel: string) => page.querySelector<HTMLInputElement>(sel)!;

async function loginPage() {
  api.reset();
  api.on('GET /admin/api/me', { status: 401, body: { success: false, error: 'Please sign in.', code: 'not_signed_in' } });
  const page = await renderAdmin('/admin/login');
  await type(input(page, '[placeholder="Enter your username"]'), 'admin');
  await type(input(page, '[placeholder="Enter your password"]'), 'wrong-password');
  return page;
}
const submit = async (page: Element) => click(control('Sign In', page));

describe('login', () => {
  test('the form has SPEC\'s texts and required fields', async () => {
    const page = await loginPage();
    assert.ok(hasText('Sign in to access the wedding photo administration panel', page));
    assert.equal(input(page, '#admin-username').required, true);
    assert.equal(input(page, '#admin-password').required, true);
    assert.equal(control('← Back to Wedding Photos', page).getAttribute('href'), '/');
  });

  test('a refused login shows the server\'s error above the form', async () => {
    const page = await loginPage();
    api.on('POST /admin/api/login', { status: 401, body: { success: false, error: 'Invalid username or password', code: 'not_signed_in' } });
    await submit(page);
    const alert = page.querySelector('.alert-destructive')!;
    assert.equal(alert.textContent, 'Invalid username or password');
    assert.ok(alert.compareDocumentPosition(page.querySelector('form')!) & 4, 'alert precedes the form');
    assert.deepEqual(api.called('POST /admin/api/login')[0].body, { username: 'admin', password: 'wrong-password' });
  });

  test('a failure without an error field reads "Login failed"', async () => {
    const page = await loginPage();
    api.on('POST /admin/api/login', { status: 502, body: '<html>bad gateway</html>' });
    await submit(page);
    assert.equal(page.querySelector('.alert-destructive')!.textContent, 'Login failed');
  });

  test('while submitting, inputs and button are disabled and read "Signing in..."; success opens the dashboard', async () => {
    const page = await loginPage();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    serveAs('admin');
    api.on('GET /admin/api/me', { status: 401, body: { success: false, error: 'x', code: 'not_signed_in' } });
    api.on('POST /admin/api/login', { body: meFor('admin') });
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (...a: Parameters<typeof fetch>) => {
      if (String(a[0]).endsWith('/login')) await gate;
      return realFetch(...a);
    }) as typeof fetch;
    try {
      await click(control('Sign In', page));
      assert.ok(controls('Signing in...', page).length === 1);
      assert.equal((control('Signing in...', page) as HTMLButtonElement).disabled, true);
      assert.equal(input(page, '#admin-username').disabled, true);
      assert.equal(input(page, '#admin-password').disabled, true);
      api.on('GET /admin/api/me', { body: meFor('admin') });
      release();
      await waitFor(() => location.pathname === '/admin/dashboard', 'the dashboard');
    } finally {
      globalThis.fetch = realFetch;
    }
  });
});

describe('header', () => {
  test('Logout ends on the login screen even when the request fails', async () => {
    serveAs('groom');
    api.on('POST /admin/api/logout', { status: 500, body: { success: false, error: 'db down', code: 'internal' } });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => hasText('Total Photos', page), 'dashboard');
    api.on('GET /admin/api/me', { status: 401, body: { success: false, error: 'x', code: 'not_signed_in' } });
    await click(control('Logout', page));
    assert.equal(api.called('POST /admin/api/logout').length, 1);
    await waitFor(() => location.pathname === '/admin/login' && hasText('Admin Login', page), 'login page');
  });

  test('a failed logout still stays on the login screen though the old session answers', async () => {
    serveAs('admin');
    api.on('POST /admin/api/logout', { status: 503, body: null });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => hasText('Total Photos', page), 'dashboard');
    await click(control('Logout', page));
    await waitFor(() => hasText('Admin Login', page), 'login page');
    await settle();
    assert.equal(location.pathname, '/admin/login');
  });

  test('the narrow-screen menu opens with its button and closes after a choice', async () => {
    serveAs('admin');
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => hasText('Total Photos', page), 'dashboard');
    const nav = page.querySelector('#admin-nav')!;
    assert.equal(nav.classList.contains('is-open'), false);
    await click(control('Open menu', page));
    assert.equal(nav.classList.contains('is-open'), true);
    assert.equal(control('Close menu', page).getAttribute('aria-expanded'), 'true');
    await click(control('Photos', nav));
    assert.equal(nav.classList.contains('is-open'), false);
    await waitFor(() => location.pathname === '/admin/photos', 'photos');
    assert.equal(control('Photos', nav).getAttribute('aria-current'), 'page');
  });

  test('an unknown admin path redirects to /', async () => {
    serveAs('admin');
    await renderAdmin('/admin/nowhere');
    await waitFor(() => location.pathname === '/', 'redirect to /');
  });
});

const USERS = [
  { id: 1, username: 'admin', email: 'a@x.io', full_name: 'Admin', role: 'admin', is_active: true, created_at: '2025-01-01T00:00:00Z', last_login: '2025-06-01T00:00:00Z' },
  { id: 2, username: 'emma', email: 'e@x.io', full_name: 'Emma', role: 'bride', is_active: true, created_at: '2025-01-02T00:00:00Z', last_login: null },
  { id: 3, username: 'aunt', email: 't@x.io', full_name: 'Aunt May', role: 'family', is_active: false, created_at: '2025-01-03T00:00:00Z', last_login: null },
];

async function usersPage() {
  serveAs('admin');
  api.on('GET /admin/api/users', { body: { success: true, users: USERS } });
  const page = await renderAdmin('/admin/users');
  await waitFor(() => hasText('Users (3)', page), 'the users');
  return page;
}
const row = (page: Element, username: string) => page.querySelector<HTMLElement>(`tr[data-username="${username}"]`)!;

describe('users', () => {
  test('table rows: role badges, status, "Never" for no login', async () => {
    const page = await usersPage();
    assert.ok(row(page, 'emma').querySelector('.role-bride'));
    assert.ok(row(page, 'admin').querySelector('.role-admin'));
    assert.ok(row(page, 'aunt').querySelector('.role-family'));
    assert.ok(hasText('Never', row(page, 'emma')));
    assert.ok(hasText('Inactive', row(page, 'aunt')) && hasText('Activate', row(page, 'aunt')));
    assert.ok(hasText('Active', row(page, 'emma')) && hasText('Deactivate', row(page, 'emma')));
    assert.equal(page.querySelectorAll('.user-card').length, 3, 'cards for small screens');
  });

  test('create: modal defaults family and active, toast "User created"', async () => {
    const page = await usersPage();
    api.on('POST /admin/api/users', { status: 201, body: { success: true, user: USERS[2] } });
    await click(control('Create New User', page));
    const dialog = page.querySelector('[role="dialog"]')!;
    assert.ok(hasText('Create New User', dialog));
    assert.equal(dialog.querySelector<HTMLSelectElement>('#uf-role')!.value, 'family');
    assert.equal(input(dialog, '#uf-email').type, 'email');
    assert.equal(input(dialog, '#uf-password').required, true);
    assert.equal(input(dialog, 'input[type="checkbox"]').checked, true);
    await type(input(dialog, '#uf-username'), 'uncle');
    await type(input(dialog, '#uf-full-name'), 'Uncle Bob');
    await type(input(dialog, '#uf-email'), 'bob@x.io');
    await type(input(dialog, '#uf-password'), 'long-enough-pw');
    await click(control('Create User', dialog));
    assert.deepEqual(api.called('POST /admin/api/users')[0].body, { username: 'uncle', full_name: 'Uncle Bob', email: 'bob@x.io', password: 'long-enough-pw', role: 'family', is_active: true });
    assert.equal(toasts.value.at(-1)!.title, 'User created');
    assert.equal(page.querySelector('[role="dialog"]'), null);
  });

  test('a refused create keeps the modal and shows "Error" with the server text', async () => {
    const page = await usersPage();
    api.on('POST /admin/api/users', { status: 409, body: { success: false, error: 'That username is taken.', code: 'conflict' } });
    await click(control('Create New User', page));
    const dialog = page.querySelector('[role="dialog"]')!;
    for (const [sel, v] of [['#uf-username', 'emma'], ['#uf-full-name', 'E'], ['#uf-email', 'e@x.io'], ['#uf-password', 'long-enough-pw']]) await type(input(dialog, sel), v);
    await click(control('Create User', dialog));
    assert.deepEqual([toasts.value.at(-1)!.title, toasts.value.at(-1)!.description], ['Error', 'That username is taken.']);
    assert.ok(page.querySelector('[role="dialog"]'));
  });

  test('edit with a blank password does not send it; toast "User updated"', async () => {
    const page = await usersPage();
    api.on('PUT /admin/api/users/2', { body: { success: true, user: USERS[1] } });
    await click(control('Edit emma', row(page, 'emma')));
    const dialog = page.querySelector('[role="dialog"]')!;
    assert.ok(hasText('Edit User', dialog));
    assert.equal(input(dialog, '#uf-password').required, false);
    await type(input(dialog, '#uf-full-name'), 'Emma Rose');
    await click(control('Save Changes', dialog));
    const body = api.called('PUT /admin/api/users/2')[0].body as Record<string, unknown>;
    assert.equal(body.full_name, 'Emma Rose');
    assert.equal('password' in body, false);
    assert.equal(toasts.value.at(-1)!.title, 'User updated');
    assert.deepEqual(editPayload({ ...emptyUserForm(), password: 'new-secret-pw' }).password, 'new-secret-pw');
  });

  test('delete asks with the username; failures use SPEC\'s fallback', async () => {
    const page = await usersPage();
    api.on('DELETE /admin/api/users/3', { status: 500, body: null });
    await click(control('Delete aunt', row(page, 'aunt')));
    assert.deepEqual(dialogs.confirms, ['Are you sure you want to delete user "aunt"? This action cannot be undone.']);
    assert.deepEqual([toasts.value.at(-1)!.title, toasts.value.at(-1)!.description], ['Error', 'Failed to delete user']);
    api.on('DELETE /admin/api/users/3', { body: { success: true } });
    await click(control('Delete aunt', row(page, 'aunt')));
    assert.equal(toasts.value.at(-1)!.title, 'User deleted');
  });

  test('toggle active toasts "User status updated"', async () => {
    const page = await usersPage();
    api.on('POST /admin/api/users/3/toggle-active', { body: { success: true, user: { ...USERS[2], is_active: true } } });
    await click(control('Activate aunt', row(page, 'aunt')));
    assert.equal(toasts.value.at(-1)!.title, 'User status updated');
    assert.match(toasts.value.at(-1)!.description!, /activated/);
  });
});
