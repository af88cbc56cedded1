import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cleanup, click, control, controls, hasText, meFor, permsFor, renderAdmin, waitFor, type RoleName } from '../helpers/admin-render.js';
import { dashboard, photo, serveAs } from './admin-fixtures.js';

const ROLES: { role: RoleName; manage: boolean; moderate: boolean }[] = [
  { role: 'admin', manage: true, moderate: true },
  { role: 'bride', manage: false, moderate: true },
  { role: 'groom', manage: false, moderate: true },
  { role: 'family', manage: false, moderate: false },
];

afterEach(cleanup);

describe('what each role sees on the dashboard', () => {
  for (const { role, manage } of ROLES) {
    test(`${role}: Users nav, Manage Users, user cards, Settings and delete ${manage ? 'shown' : 'absent'}`, async () => {
      serveAs(role);
      const page = await renderAdmin('/admin/dashboard');
      await waitFor(() => hasText('Total Photos', page), 'the stat cards');
      assert.ok(hasText(`Welcome back, The ${role}`, page));
      assert.equal(controls('Users', page).length > 0, manage, 'Users navigation entry');
      assert.equal(controls('Manage Users', page).length > 0, manage, 'Manage Users button');
      assert.equal(controls('Settings', page).length > 0, manage, 'Settings button');
      for (const card of ['Total Users', 'Active Users', 'Admin Users', 'Family Users']) assert.equal(hasText(card, page), manage, card);
      assert.equal(controls('Delete', page).length > 0, manage, 'delete on recent photos');
      // Everyone may moderate visibility from the dashboard; approve only for the hidden photo.
      assert.equal(controls('Approve', page).length, 1);
      assert.equal(controls('Hide', page).length, 2);
      assert.ok(controls('Dashboard', page)[0].getAttribute('aria-current') === 'page');
      assert.ok(controls('Manage Photos', page).length === 1);
      assert.ok(controls('QR Signs', page).length === 1 && controls('Reception Wall', page).length === 1);
    });
  }
});

describe('what each role sees on the photos screen', () => {
  for (const { role, manage, moderate } of ROLES) {
    test(`${role}: moderator tools ${moderate ? 'shown' : 'absent'}, delete ${manage ? 'shown' : 'absent'}`, async () => {
      serveAs(role, [photo(), photo({ is_visible: false }), photo({ content_type: 'video/mp4', thumbnail_url: null })]);
      const page = await renderAdmin('/admin/photos');
      await waitFor(() => page.querySelectorAll('[data-testid="photo-card"]').length === 3, 'three cards');
      assert.ok(controls('Photos', page)[0].getAttribute('aria-current') === 'page');
      assert.equal(controls('Approval Queue', page).length > 0, moderate, 'queue mode');
      assert.equal(controls('Regenerate All Thumbnails', page).length > 0, moderate);
      // Rotate and regenerate are for images only: two image cards.
      assert.equal(controls('Rotate 90° clockwise', page).length, moderate ? 2 : 0);
      assert.equal(controls('Regenerate thumbnail', page).length, moderate ? 2 : 0);
      assert.equal(controls('Delete permanently', page).length, manage ? 3 : 0);
      assert.equal(controls('Download', page).length, 3);
      await click(control('Select Photos', page));
      await click(control('Select All (3)', page));
      assert.equal(controls('Delete', page).length > 0, manage, 'bulk delete');
      assert.equal(controls('Show', page).length > 0, true, 'bulk show for every role');
    });
  }

  test('a family user asking for /admin/users gets the permission text, and no Users entry', async () => {
    serveAs('family');
    api.on('GET /admin/api/users', { status: 403, body: { success: false, error: 'Insufficient permissions. Admin role required.', code: 'forbidden' } });
    const page = await renderAdmin('/admin/users');
    await waitFor(() => hasText('Insufficient permissions. Admin role required.', page), 'the 403 text');
    assert.equal(controls('Users', page).length, 0);
    assert.equal(controls('Create New User', page).length, 0);
  });
});

describe('delete follows can_delete_photos, the flag the server checks', () => {
  // Flags no role has today, so the test tells can_delete_photos apart from can_manage_users.
  const cases = [
    { name: 'a moderator given can_delete_photos', role: 'bride' as RoleName, manage: false, del: true },
    { name: 'an admin without can_delete_photos', role: 'admin' as RoleName, manage: true, del: false },
  ];
  for (const { name, role, manage, del } of cases) {
    test(`${name}: delete ${del ? 'shown' : 'absent'} on the dashboard, the photos screen and the queue`, async () => {
      const photos = [photo(), photo({ is_visible: false })];
      serveAs(role, photos);
      const perms = { ...permsFor(role), can_manage_users: manage, can_delete_photos: del };
      api.on('GET /admin/api/me', { body: { ...meFor(role), user_permissions: perms } });
      api.on('GET /admin/api/dashboard', { body: { ...dashboard(role, {}, photos), user_permissions: perms } });

      const dash = await renderAdmin('/admin/dashboard');
      await waitFor(() => hasText('Total Photos', dash), 'the stat cards');
      assert.equal(controls('Delete', dash).length > 0, del, 'delete on recent photos');

      const page = await renderAdmin('/admin/photos');
      await waitFor(() => page.querySelectorAll('[data-testid="photo-card"]').length === 2, 'two cards');
      assert.equal(controls('Delete permanently', page).length, del ? 2 : 0);
      await click(control('Select Photos', page));
      await click(control('Select All (2)', page));
      assert.equal(controls('Delete', page).length > 0, del, 'bulk delete');

      await click(control('Approval Queue', page));
      await waitFor(() => controls('Approve', page).length === 1, 'the queue');
      assert.equal(controls('Reject', page).length, del ? 1 : 0, 'reject in the queue');
    });
  }
});
