// The wall remote (/admin/remote) and the dashboard's "2 walls connected", rendered in happy-dom
// against a scripted /admin/api: family steers the wall (pause, curtain, next, previous, layout,
// a photo now, an announcement), every control has a name, and a lost wall says so.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { WallsResponse } from '../../common/api-types.js';
import { api, cleanup, click, control, hasText, meFor, renderAdmin, type as typeInto, waitFor } from '../helpers/admin-render.js';
import { wallItem } from '../helpers/wall-items.js';
import { dashboard } from './admin-fixtures.js';

afterEach(cleanup);

const walls = (): WallsResponse => ({
  success: true,
  connected: 2,
  walls: [
    { id: 'wall-a-000001', last_seen: new Date().toISOString(), showing: 'p1', layout: 'mosaic', blank: false, paused: false, lost: false },
    { id: 'wall-b-000002', last_seen: new Date().toISOString(), showing: null, layout: 'mosaic', blank: true, paused: false, lost: false },
    { id: 'wall-c-000003', last_seen: new Date(Date.now() - 90_000).toISOString(), showing: 'p2', layout: 'single', blank: false, paused: false, lost: true },
  ],
});

function serve() {
  let state = { paused: false, blank: false, layout: 'single' };
  api.reset();
  api.on('GET /admin/api/me', { body: meFor('family') });
  api.on('GET /admin/api/walls', { body: walls() });
  api.on('GET /admin/api/wall', () => ({ body: { success: true, wall: state } }));
  api.on('PUT /admin/api/wall', (call) => {
    state = { ...state, ...(call.body as object) };
    return { body: { success: true, wall: state } };
  });
  api.on('POST /admin/api/wall/command', (call) => ({ body: { success: true, ...(call.body as object) } }));
  api.on('POST /admin/api/wall/announce', (call) => {
    const b = call.body as { text: string };
    return b.text.length > 140 ? { status: 400, body: { success: false, error: 'The announcement must be 1 to 140 characters long.' } } : { body: { success: true, ...b } };
  });
  api.on('GET /api/photos', { body: { success: true, photos: [wallItem('p1'), wallItem('p2')], pagination: { has_more: false } } });
}

test('family steers the wall from the remote: pause, curtain, next, previous, layout, a photo now and an announcement', async () => {
  serve();
  const page = await renderAdmin('/admin/remote');
  await waitFor(() => hasText('2 walls connected', page), 'the walls line');
  assert.ok(hasText('Wall 1', page) && hasText('Showing photos', page));
  assert.ok(hasText('Curtain drawn: only your names show', page));
  assert.ok(hasText('Lost: last heard from at', page), 'a wall not heard from for a minute');

  await waitFor(() => !(control('Pause the wall', page) as HTMLButtonElement).disabled, 'the controls');
  await click(control('Pause the wall', page));
  assert.deepEqual(api.called('PUT /admin/api/wall').at(-1)!.body, { paused: true });
  assert.equal(control('Resume the wall', page).getAttribute('aria-pressed'), 'true');

  await click(control('Draw the curtain', page));
  assert.deepEqual(api.called('PUT /admin/api/wall').at(-1)!.body, { blank: true });
  assert.ok(control('Open the curtain', page));

  await click(control('Next', page));
  await click(control('Previous', page));
  await click(control('Show on the wall now: p2.jpg', page));
  assert.deepEqual(
    api.called('POST /admin/api/wall/command').map((c) => c.body),
    [{ command: 'next' }, { command: 'previous' }, { command: 'show', photo_id: 'p2' }],
  );
  assert.equal(page.querySelector('[data-testid="remote-status"]')!.textContent, 'Sent to the wall.');

  const mosaic = [...page.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find((r) => r.parentElement!.textContent === 'Mosaic: a grid of photos')!;
  await click(mosaic);
  assert.deepEqual(api.called('PUT /admin/api/wall').at(-1)!.body, { layout: 'mosaic' });

  const box = page.querySelector('textarea')!;
  assert.equal(page.querySelector(`label[for="${box.id}"]`)!.textContent, 'Text over the wall (at most 140 characters)');
  assert.equal(box.maxLength, 140);
  await typeInto(box, 'Cake in five minutes!');
  const seconds = page.querySelector('select')!;
  assert.ok(page.querySelector(`label[for="${seconds.id}"]`));
  assert.deepEqual([...seconds.options].map((o) => o.textContent), ['10 seconds', '20 seconds', '30 seconds', '60 seconds']);
  await click(control('Show on the wall', page));
  assert.deepEqual(api.called('POST /admin/api/wall/announce').at(-1)!.body, { text: 'Cake in five minutes!', seconds: 20 });
  assert.equal(box.value, '', 'cleared once sent');
});

test('a refused command says why in the status line', async () => {
  serve();
  api.on('POST /admin/api/wall/command', { status: 404, body: { success: false, error: 'This photo is not visible to guests, so the wall cannot show it.' } });
  const page = await renderAdmin('/admin/remote');
  await waitFor(() => hasText('Show a photo now', page) && !!page.querySelector('.remote-photo'), 'the photos');
  await click(control('Show on the wall now: p1.jpg', page));
  assert.equal(page.querySelector('[data-testid="remote-status"]')!.textContent, 'This photo is not visible to guests, so the wall cannot show it.');
});

test('the dashboard says how many walls are connected and links to the remote', async () => {
  serve();
  api.on('GET /admin/api/dashboard', { body: dashboard('family') });
  const page = await renderAdmin('/admin/dashboard');
  await waitFor(() => hasText('2 walls connected', page), 'the walls line');
  assert.equal(control('Open the remote', page).getAttribute('href'), '/admin/remote');
});
