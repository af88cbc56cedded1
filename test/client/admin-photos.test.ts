import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { api, cleanup, click, control, controls, dialogs, hasText, renderAdmin, settle, waitFor } from '../helpers/admin-render.js';
import { photo, serveAs } from './admin-fixtures.js';
import { toasts } from '../../client/components/ui/toast.js';
import { initialView, queuePhotos, viewReducer } from '../../client/state/adminPhotos.js';

afterEach(cleanup);

const cards = (page: Element, kind = 'photo-card') => [...page.querySelectorAll<HTMLElement>(`[data-testid="${kind}"]`)];
const checked = (page: Element) => [...page.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')].filter((c) => c.checked).length;
const heading = (page: Element) => page.querySelector('h1')!.textContent!.replace(/\s+/g, ' ').trim();

async function photosPage(role: 'admin' | 'bride' = 'admin', photos = [photo(), photo({ is_visible: false }), photo({ is_visible: false })]) {
  serveAs(role, photos);
  const page = await renderAdmin('/admin/photos');
  await waitFor(() => cards(page).length === photos.length, 'the cards');
  return page;
}

describe('photo page modes', () => {
  test('All mode: heading, total, hidden badge, the toggles and the request it makes', async () => {
    const page = await photosPage();
    assert.match(heading(page), /^Photo Management \(3 total\)/);
    assert.equal(page.querySelector('.photos-hidden-badge')!.textContent, '2');
    const last = api.called('GET /admin/api/photos').at(-1)!;
    assert.equal(last.query.get('per_page'), '20');
    assert.equal(last.query.get('show_all'), 'true');
    await click(control('Show Visible Only', page));
    await waitFor(() => cards(page).length === 1, 'visible only');
    assert.equal(api.called('GET /admin/api/photos').at(-1)!.query.get('show_all'), 'false');
    assert.ok(controls('Show All Photos', page).length === 1);
  });

  test('empty texts differ for all photos, visible only and the queue', async () => {
    serveAs('admin', []);
    const page = await renderAdmin('/admin/photos');
    await waitFor(() => hasText('No photos found', page), 'empty all');
    await click(control('Show Visible Only', page));
    await waitFor(() => hasText('No visible photos found', page), 'empty visible');
    await click(control('Approval Queue', page));
    await waitFor(() => hasText('All caught up! No photos pending approval.', page), 'empty queue');
  });

  test('Approval Queue asks for pending photos, 50 a page, and counts them', async () => {
    const page = await photosPage('bride');
    await click(control('Approval Queue', page));
    await waitFor(() => cards(page, 'approval-card').length === 2, 'two queue cards');
    const q = api.called('GET /admin/api/photos').at(-1)!;
    assert.equal(q.query.get('pending'), 'true');
    assert.equal(q.query.get('per_page'), '50');
    assert.match(heading(page), /^Photo Approval Queue \(2 pending approval\)/);
    // Reject deletes, so a bride (no delete permission) is not offered it.
    assert.equal(controls('Reject', page).length, 0);
    assert.equal(controls('Approve', page).length, 2);
  });

  test('switching modes never shows the other mode\'s list, and a slow earlier answer does not overwrite a later one', async () => {
    const photos = [photo(), photo({ is_visible: false }), photo({ is_visible: false })];
    const page = await photosPage('admin', photos);
    // From now on the queue's answer is slow: it arrives after the All answer asked for later.
    let releaseQueue = () => {};
    api.on('GET /admin/api/photos', async (c) => {
      const pending = c.query.get('pending') === 'true';
      if (pending) await new Promise<void>((r) => (releaseQueue = r));
      const list = pending ? photos.filter((p) => !p.is_visible) : photos;
      return { body: { success: true, photos: list, pagination: { page: 1, pages: 1, total: list.length, has_prev: false, has_next: false } } };
    });
    await click(control('Approval Queue', page));
    // Until the queue's own answer: no count in its heading, no All photo shown as a queue card.
    assert.equal(heading(page), 'Photo Approval Queue');
    assert.equal(cards(page, 'approval-card').length, 0);
    assert.ok(page.querySelector('[aria-label="Loading photos"]'), 'the skeleton shows meanwhile');
    await click(control('All Photos', page));
    await waitFor(() => cards(page).length === 3, 'the All list again');
    releaseQueue();
    await settle();
    assert.match(heading(page), /^Photo Management \(3 total\)/, 'the late queue answer is dropped');
    assert.equal(cards(page).length, 3);
    assert.equal(cards(page, 'approval-card').length, 0);
  });

  test('the queue keeps only hidden photos even if the server sends a visible one', () => {
    const a = photo({ is_visible: false });
    const b = photo({ is_visible: true });
    const c = photo({ is_visible: false });
    assert.deepEqual(queuePhotos([a, b, c], new Set([c.id])).map((p) => p.id), [a.id]);
  });
});

describe('skipped photos', () => {
  test('Skip hides a card for the session; "Show 1 Skipped" brings it back; a mode change forgets it', async () => {
    const page = await photosPage();
    await click(control('Approval Queue', page));
    await waitFor(() => cards(page, 'approval-card').length === 2, 'queue');
    const skippedId = cards(page, 'approval-card')[0].dataset.photoId!;
    await click(control('Skip', cards(page, 'approval-card')[0]));
    assert.equal(cards(page, 'approval-card').length, 1);
    assert.ok(!cards(page, 'approval-card').some((c) => c.dataset.photoId === skippedId));
    assert.equal(api.calls.filter((c) => c.method !== 'GET').length, 0, 'skip is not saved');
    await click(control('Show 1 Skipped', page));
    assert.equal(cards(page, 'approval-card').length, 2);

    await click(control('Skip', cards(page, 'approval-card')[0]));
    await click(control('All Photos', page));
    await click(control('Approval Queue', page));
    await waitFor(() => cards(page, 'approval-card').length === 2, 'queue again');
    assert.equal(controls('Show 1 Skipped', page).length, 0);
  });

  test('Select Multiple then "Approve 2" shows both with one bulk call', async () => {
    const page = await photosPage();
    api.on('POST /admin/api/photos/bulk-toggle-visibility', { body: { success: true, message: '2 photos shown' } });
    await click(control('Approval Queue', page));
    await waitFor(() => cards(page, 'approval-card').length === 2, 'queue');
    await click(control('Select Multiple', page));
    assert.equal(controls('Approve 2', page).length, 0, 'nothing selected yet');
    await click(control('Select All (2)', page));
    await click(control('Approve 2', page));
    const call = api.called('POST /admin/api/photos/bulk-toggle-visibility')[0];
    assert.deepEqual(call.body, { photo_ids: cards(page, 'approval-card').map((c) => c.dataset.photoId), action: 'show' });
  });

  test('Reject asks first and deletes; declining does nothing', async () => {
    const page = await photosPage();
    api.on('DELETE /admin/api/photos/p0/delete', {});
    await click(control('Approval Queue', page));
    await waitFor(() => cards(page, 'approval-card').length === 2, 'queue');
    const id = cards(page, 'approval-card')[0].dataset.photoId!;
    api.on(`DELETE /admin/api/photos/${id}/delete`, { body: { success: true } });
    dialogs.confirmAnswer = false;
    await click(control('Reject', cards(page, 'approval-card')[0]));
    assert.deepEqual(dialogs.confirms, ['Are you sure you want to reject this photo? This will permanently delete it.']);
    assert.equal(api.called(`DELETE /admin/api/photos/${id}/delete`).length, 0);
    dialogs.confirmAnswer = true;
    await click(control('Reject', cards(page, 'approval-card')[0]));
    assert.equal(api.called(`DELETE /admin/api/photos/${id}/delete`).length, 1);
  });
});

describe('selection rules', () => {
  test('Select All counts, Clear Selection empties, bulk buttons only once something is selected', async () => {
    const page = await photosPage();
    await click(control('Select Photos', page));
    assert.ok(controls('Exit Select Mode', page).length === 1);
    assert.equal(controls('Hide', page.querySelector('.selection-bar')!).length, 0);
    await click(control('Select All (3)', page));
    assert.equal(checked(page), 3);
    assert.ok(hasText('3 selected', page));
    assert.ok(controls('Hide', page.querySelector('.selection-bar')!).length === 1);
    await click(control('Clear Selection', page));
    assert.equal(checked(page), 0);
  });

  test('bulk delete confirms with the count, and the list reload clears the selection', async () => {
    const page = await photosPage();
    api.on('DELETE /admin/api/photos/bulk-delete', { body: { success: true, message: 'Deleted 3 photos' } });
    await click(control('Select Photos', page));
    await click(control('Select All (3)', page));
    await click(control('Delete', page.querySelector('.selection-bar')!));
    assert.deepEqual(dialogs.confirms, ['Are you sure you want to permanently delete 3 photos? This action cannot be undone.']);
    assert.equal(api.called('DELETE /admin/api/photos/bulk-delete')[0].body && (api.called('DELETE /admin/api/photos/bulk-delete')[0].body as { photo_ids: string[] }).photo_ids.length, 3);
    await waitFor(() => checked(page) === 0, 'selection cleared');
  });

  test('the reducer: mode change resets page, selection and skipped; page and list changes clear selection', () => {
    let s = viewReducer(initialView(), { type: 'page', page: 3 });
    s = viewReducer(s, { type: 'toggle', id: 'a' });
    s = viewReducer(s, { type: 'skip', id: 'b' });
    assert.equal(s.selected.size, 1);
    const paged = viewReducer(s, { type: 'page', page: 4 });
    assert.equal(paged.selected.size, 0);
    assert.equal(viewReducer(s, { type: 'listChanged' }).selected.size, 0);
    const moded = viewReducer(s, { type: 'mode', mode: 'queue' });
    assert.deepEqual([moded.page, moded.selected.size, moded.skipped.size], [1, 0, 0]);
    assert.equal(viewReducer(s, { type: 'toggle', id: 'a' }).selected.size, 0, 'toggle twice unselects');
  });
});

describe('actions and their failures', () => {
  test('a failed toggle shows the server error; without one, SPEC\'s sentence', async () => {
    const page = await photosPage();
    const id = cards(page)[0].dataset.photoId!;
    api.on(`POST /admin/api/photos/${id}/toggle-visibility`, { status: 500, body: { success: false, error: 'Disk on fire', code: 'internal' } });
    await click(control('Hide', cards(page)[0]));
    assert.equal(toasts.value.at(-1)!.title, 'Error');
    assert.equal(toasts.value.at(-1)!.description, 'Disk on fire');
    api.on(`POST /admin/api/photos/${id}/toggle-visibility`, { status: 502, body: 'Bad gateway' });
    await click(control('Hide', cards(page)[0]));
    assert.equal(toasts.value.at(-1)!.description, 'Failed to toggle visibility');
  });

  test('rotate sends 90 degrees and a {success:false} answer is a failure', async () => {
    const page = await photosPage();
    const id = cards(page)[0].dataset.photoId!;
    api.on(`POST /admin/api/photos/${id}/rotate`, { body: { success: false } });
    await click(control('Rotate 90° clockwise', cards(page)[0]));
    assert.deepEqual(api.called(`POST /admin/api/photos/${id}/rotate`)[0].body, { degrees: 90 });
    assert.equal(toasts.value.at(-1)!.description, 'Failed to rotate photo');
  });

  test('single delete asks with SPEC\'s sentence', async () => {
    const page = await photosPage();
    dialogs.confirmAnswer = false;
    await click(control('Delete permanently', cards(page)[0]));
    assert.deepEqual(dialogs.confirms, ['Are you sure you want to permanently delete this photo? This action cannot be undone.']);
  });

  test('Regenerate All Thumbnails shows its statistics in an alert', async () => {
    const page = await photosPage();
    api.on('POST /admin/api/photos/regenerate-all-thumbnails', { body: { success: true, statistics: { processed: 3, succeeded: 2, failed: 1 } } });
    await click(control('Regenerate All Thumbnails', page));
    assert.equal(dialogs.alerts.length, 1);
    assert.match(dialogs.alerts[0], /Processed: 3[\s\S]*Succeeded: 2[\s\S]*Failed: 1/);
  });

  test('pages: "Page X of Y" with Previous/Next, and the page change reloads', async () => {
    serveAs('admin', [photo()]);
    api.on('GET /admin/api/photos', (c) => ({
      body: { success: true, photos: [photo()], pagination: { page: Number(c.query.get('page')), pages: 3, total: 41, has_prev: c.query.get('page') !== '1', has_next: c.query.get('page') !== '3' } },
    }));
    const page = await renderAdmin('/admin/photos');
    await waitFor(() => hasText('Page 1 of 3', page), 'pager');
    assert.equal((control('Previous', page) as HTMLButtonElement).disabled, true);
    await click(control('Next', page));
    await waitFor(() => hasText('Page 2 of 3', page), 'page 2');
    assert.equal(api.called('GET /admin/api/photos').at(-1)!.query.get('page'), '2');
  });

  test('placeholders stand in for a missing thumbnail, a video and another type', async () => {
    const page = await photosPage('admin', [
      photo({ thumbnail_url: null }),
      photo({ content_type: 'video/mp4', thumbnail_url: null }),
      photo({ content_type: 'application/octet-stream', thumbnail_url: null }),
    ]);
    assert.deepEqual([...page.querySelectorAll('[data-placeholder]')].map((e) => e.getAttribute('data-placeholder')), ['image', 'video', 'file']);
  });
});
