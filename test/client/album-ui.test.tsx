import { actAsync, render } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { GalleryItem } from '../../common/api-types.js';
import { stacksOf } from '../../client/components/admin/stacks.js';
import { toasts } from '../../client/components/ui/toast.js';
import { GalleryPage } from '../../client/pages/GalleryPage.js';
import { galleryItem as item, photo } from './admin-fixtures.js';

test('the queue stacks similar shots at the place of their first photo, best first (fewest flags, then sharpest), a chosen one in front', () => {
  const a = photo({ id: 'a', similar_group: 'g', sharpness: 900, quality_flags: ['dark'] });
  const b = photo({ id: 'b' });
  const c = photo({ id: 'c', similar_group: 'g', sharpness: 200 });
  const d = photo({ id: 'd', similar_group: 'g', sharpness: 500 });
  const e = photo({ id: 'e', similar_group: 'h', sharpness: null });
  const stacks = stacksOf([a, b, c, d, e]);
  assert.deepEqual(
    stacks.map((s) => [s.lead.id, ...s.others.map((o) => o.id)]),
    [['d', 'c', 'a'], ['b'], ['e']],
  );
  assert.deepEqual(stacksOf([a, b, c, d], new Set(['a']))[0].lead.id, 'a');
});

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

/** The gallery with one photo; PUT/DELETE of its heart answered by `heart`. */
function serve(heart: (method: string) => Promise<Response>, photos: GalleryItem[]) {
  const sent: string[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    if (url.includes('/heart')) {
      sent.push(method);
      return heart(method);
    }
    if (url.startsWith('/api/photos')) return Response.json({ success: true, photos, pagination: { total: photos.length, limit: 20, offset: 0, has_more: false } });
    return Response.json({});
  }) as typeof fetch;
  return sent;
}

const heartOf = (c: HTMLElement) => c.querySelector('.gallery-grid .heart') as HTMLButtonElement;

test('a heart shows before the server answers, then the server\'s count; a refused heart goes back as it was with a toast', async () => {
  toasts.value = [];
  let release!: (r: Response) => void;
  const sent = serve((method) => (method === 'PUT' ? new Promise((ok) => (release = ok)) : Promise.resolve(Response.json({ success: false, error: 'Nope' }, { status: 500 }))), [item(1, { hearts: 4 })]);
  const r = await render(<GalleryPage />);
  await actAsync();
  const c = r.container;
  await actAsync(() => heartOf(c).click());
  assert.equal(heartOf(c).getAttribute('aria-pressed'), 'true', 'pressed at once');
  assert.equal(heartOf(c).textContent, '5');
  await actAsync(() => release(Response.json({ success: true, hearted: true, hearts: 7 })));
  assert.equal(heartOf(c).textContent, '7', "the server's count once it answers");
  await actAsync(() => heartOf(c).click());
  await actAsync();
  assert.deepEqual(sent, ['PUT', 'DELETE']);
  assert.equal(heartOf(c).getAttribute('aria-pressed'), 'true', 'back as the server last said');
  assert.equal(heartOf(c).textContent, '7');
  assert.equal(toasts.value.length, 1);
  await r.unmount();
});
