import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cleanup, hasText, renderAdmin, waitFor } from '../helpers/admin-render.js';
import { dashboard, serveAs } from './admin-fixtures.js';
import { pieSlices, PIE_COLORS } from '../../client/components/admin/CameraPie.js';
import { formatBytes, storagePercent, storageWarning } from '../../client/components/admin/format.js';

afterEach(cleanup);

async function dashboardWith(stats: Parameters<typeof dashboard>[1]) {
  serveAs('admin');
  api.on('GET /admin/api/dashboard', { body: dashboard('admin', stats) });
  const page = await renderAdmin('/admin/dashboard');
  await waitFor(() => hasText('Storage Used', page), 'the stat cards');
  const card = (id: string) => page.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
  return { page, card };
}

describe('stat cards', () => {
  test('Total Photos shows the week trend and Visible Photos the pending count', async () => {
    const { card } = await dashboardWith({ total_photos: 12, visible_photos: 9, uploads_this_week: 5, recent_uploads: 4 });
    assert.ok(hasText('12', card('stat-total-photos')));
    assert.ok(hasText('+5 this week', card('stat-total-photos')));
    assert.ok(hasText('3 pending approval', card('stat-visible-photos')));
    assert.ok(hasText('Last 7 days', card('stat-recent-uploads')));
    assert.ok(hasText('4', card('stat-recent-uploads')));
  });

  test('beside the photos waiting, the guestbook messages waiting for approval, linked to the guestbook page', async () => {
    const { card } = await dashboardWith({ total_photos: 12, visible_photos: 9, pending_guestbook: 4, total_guestbook: 7 });
    const line = card('stat-visible-photos').querySelector<HTMLElement>('[data-testid="stat-pending-guestbook"]');
    assert.ok(line, 'the guestbook line is in the pending photos card');
    assert.ok(hasText('4 messages waiting for approval', line));
    assert.equal(line.querySelector('a')?.getAttribute('href'), '/admin/guestbook');
    assert.ok(hasText('3 pending approval', card('stat-visible-photos')));
    const one = await dashboardWith({ pending_guestbook: 1 });
    assert.ok(hasText('1 message waiting for approval', one.card('stat-visible-photos')));
  });

  test('storage above 80 % of the limit gets the warning colour', async () => {
    const { card } = await dashboardWith({ storage_used: 81 * 1024 ** 3, storage_limit: 100 * 1024 ** 3 });
    assert.ok(card('stat-storage').classList.contains('stat-card-warning'));
    assert.ok(hasText('81.00 GB', card('stat-storage')) || hasText('81 GB', card('stat-storage')));
    assert.ok(hasText('81.0% of limit', card('stat-storage')));
  });

  test('storage at exactly 80 % is not a warning', async () => {
    const { card } = await dashboardWith({ storage_used: 80 * 1024 ** 3, storage_limit: 100 * 1024 ** 3 });
    assert.equal(card('stat-storage').classList.contains('stat-card-warning'), false);
    assert.ok(hasText('80.0% of limit', card('stat-storage')));
  });

  test('unknown storage reads N/A', async () => {
    const { card } = await dashboardWith({ storage_used: null, storage_limit: null });
    assert.ok(hasText('N/A', card('stat-storage')));
    assert.equal(card('stat-storage').classList.contains('stat-card-warning'), false);
  });

  test('the dashboard shows activity, both charts and the photo cards', async () => {
    const { page } = await dashboardWith({});
    assert.ok(hasText('IMG_1.jpg was uploaded', page) || page.querySelectorAll('.activity-item').length === 2);
    assert.deepEqual([...page.querySelectorAll('.activity-item')].map((e) => e.getAttribute('data-type')), ['upload', 'login']);
    assert.ok(hasText('admin signed in', page));
    // The row already starts with who did it ("admin signed in"): the name is not repeated after it.
    assert.equal(page.querySelectorAll('.activity-user').length, 0);
    assert.ok(page.querySelector('[aria-label^="Uploads per day over the last 30 days: 12"]'));
    assert.ok(hasText('Canon EOS 40D 75%', page) && hasText('iPhone 15 25%', page));
    assert.equal(page.querySelectorAll('[data-testid="recent-photo"]').length, 2);
    assert.ok(hasText('View All Photos', page), 'more than 6 photos in total');
  });

  test('empty lists read "No recent activity" and "No photos uploaded yet"', async () => {
    serveAs('admin');
    const d = dashboard('admin', { total_photos: 0, visible_photos: 0 }, []);
    d.recent_activity = [];
    api.on('GET /admin/api/dashboard', { body: d });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => hasText('No recent activity', page), 'empty activity');
    assert.ok(hasText('No photos uploaded yet', page));
    assert.equal(hasText('View All Photos', page), false);
  });

  test('a failed load shows the error card, and Try Again loads again', async () => {
    serveAs('admin');
    api.on('GET /admin/api/dashboard', { status: 500, body: { success: false, error: 'boom', code: 'internal' } });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => hasText('Failed to load dashboard data', page), 'the error card');
    api.on('GET /admin/api/dashboard', { body: dashboard('admin') });
    const { click, control } = await import('../helpers/admin-render.js');
    await click(control('Try Again', page));
    await waitFor(() => hasText('Total Photos', page), 'the content after retry');
  });

  test('a 401 sends the browser to the login page', async () => {
    serveAs('admin');
    api.on('GET /admin/api/me', { status: 401, body: { success: false, error: 'Please sign in.', code: 'not_signed_in' } });
    api.on('GET /admin/api/dashboard', { status: 401, body: { success: false, error: 'Please sign in.', code: 'not_signed_in' } });
    const page = await renderAdmin('/admin/dashboard');
    await waitFor(() => location.pathname === '/admin/login', 'the redirect');
    await waitFor(() => hasText('Admin Login', page), 'the login page');
  });
});

describe('numbers', () => {
  test('the pie gives each camera its share, labelled with name and percentage', () => {
    const s = pieSlices([
      { name: 'Canon EOS 40D', value: 6 },
      { name: 'iPhone 15', value: 3 },
      { name: 'Pixel 8', value: 1 },
    ]);
    assert.deepEqual(
      s.map((x) => [x.label, Math.round(x.percent * 10) / 10]),
      [
        ['Canon EOS 40D 60%', 60],
        ['iPhone 15 30%', 30],
        ['Pixel 8 10%', 10],
      ],
    );
    assert.equal(Math.round(s.reduce((a, x) => a + x.percent, 0)), 100);
  });

  test('the palette has five colours and repeats after them', () => {
    assert.equal(new Set(PIE_COLORS).size, 5);
    const s = pieSlices(Array.from({ length: 6 }, (_, i) => ({ name: `c${i}`, value: 1 })));
    assert.equal(s[5].color, s[0].color);
    assert.equal(new Set(s.slice(0, 5).map((x) => x.color)).size, 5);
  });

  test('one camera is a whole circle; no data is no slice', () => {
    const one = pieSlices([{ name: 'Only', value: 4 }]);
    assert.equal(one[0].label, 'Only 100%');
    assert.match(one[0].path, /A .* A /);
    assert.deepEqual(pieSlices([]), []);
  });

  test('sizes: base 1024, two decimals, TB only on the dashboard', () => {
    assert.equal(formatBytes(0), '0 Bytes');
    assert.equal(formatBytes(512), '512 Bytes');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(1_610_612_736, true), '1.5 GB');
    assert.equal(formatBytes(1234567), '1.18 MB');
    assert.equal(formatBytes(3 * 1024 ** 4, true), '3 TB');
    assert.equal(formatBytes(3 * 1024 ** 4), '3072 GB');
  });

  test('the warning is strictly above 80 %', () => {
    assert.equal(storageWarning(storagePercent(80, 100)), false);
    assert.equal(storageWarning(storagePercent(80.01, 100)), true);
    assert.equal(storagePercent(5, 0), null);
  });
});
