import { actAsync, render, text } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { toasts } from '../../client/components/ui/toast.js';
import { GalleryPage } from '../../client/pages/GalleryPage.js';
import { galleryItem as item } from './admin-fixtures.js';

const realFetch = globalThis.fetch;
let calls: string[] = [];
let answer: (url: string) => Promise<Response> | Response;

beforeEach(() => {
  calls = [];
  toasts.value = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    return answer(url);
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});


const page = (offset: number, total: number, n = 20) => {
  const photos = Array.from({ length: Math.max(0, Math.min(n, total - offset)) }, (_, k) => item(offset + k));
  return Response.json({ success: true, photos, pagination: { total, limit: 20, offset, has_more: offset + photos.length < total } });
};

function deferred() {
  let resolve!: (r: Response) => void;
  const promise = new Promise<Response>((r) => (resolve = r));
  return { promise, resolve };
}

const button = (c: HTMLElement, label: string) => [...c.querySelectorAll('button, a')].find((b) => text(b) === label) as HTMLElement | undefined;

test('while the first page loads: a skeleton of 12 tiles; then the count line and the grid', async () => {
  const d = deferred();
  answer = () => d.promise;
  const r = await render(<GalleryPage />);
  const c = r.container;
  assert.equal(c.querySelectorAll('[data-testid="skeleton-tile"]').length, 12);
  assert.match(text(c), /Wedding Photo & Video Gallery/);
  assert.equal(c.querySelector('a.back-link')?.getAttribute('href'), '/live');
  assert.equal(text(c.querySelector('a.back-link')), 'Back to Upload');
  assert.equal(calls[0], '/api/photos?limit=20&offset=0');
  await actAsync(() => d.resolve(page(0, 3)));
  assert.equal(c.querySelectorAll('[data-testid="skeleton-tile"]').length, 0);
  assert.equal(text(c.querySelector('[data-testid="gallery-count"]')), '3 photo(s) and video(s) shared by our guests');
  const imgs = [...c.querySelectorAll('.gallery-grid img')];
  assert.equal(imgs.length, 3);
  // The first thumbnail at once and first (alone on a slow link it arrives soonest); the others lazily.
  assert.deepEqual(imgs.map((i) => [i.getAttribute('loading'), i.getAttribute('fetchpriority')]), [['eager', 'high'], ['lazy', null], ['lazy', null]]);
  assert.equal(imgs[0].getAttribute('src'), '/media/thumb/m0.webp');
  assert.equal(button(c, 'Load More Media'), undefined, 'no more items, no button');
  await r.unmount();
});

test('empty gallery: SPEC texts and a button to /live', async () => {
  answer = () => page(0, 0);
  const r = await render(<GalleryPage />);
  await actAsync();
  const c = r.container;
  assert.match(text(c), /No Photos or Videos Yet/);
  assert.match(text(c), /Be the first to share a memory from our special day!/);
  assert.equal(button(c, 'Upload Photos & Videos')?.getAttribute('href'), '/live');
  assert.equal(text(c.querySelector('[data-testid="gallery-count"]')), '0 photo(s) and video(s) shared by our guests');
  await r.unmount();
});

test('first load fails: "Unable to Load Gallery", the message, an Error toast, and Try Again recovers', async () => {
  answer = () => new Response('oops', { status: 500, statusText: 'Internal Server Error' });
  const r = await render(<GalleryPage />);
  await actAsync();
  const c = r.container;
  assert.match(text(c), /Unable to Load Gallery/);
  assert.match(text(c), /Failed to fetch photos: Internal Server Error/);
  assert.deepEqual(toasts.value.map((t) => [t.title, t.description, t.variant]), [['Error', 'Failed to fetch photos: Internal Server Error', 'destructive']]);
  answer = () => page(0, 2);
  await actAsync(() => button(c, 'Try Again')!.click());
  assert.doesNotMatch(text(c), /Unable to Load Gallery/);
  assert.equal(c.querySelectorAll('.gallery-grid img').length, 2);
  await r.unmount();
});

test('a network failure uses the default message "Failed to load photos"', async () => {
  answer = () => Promise.reject(new TypeError('fetch failed'));
  const r = await render(<GalleryPage />);
  await actAsync();
  assert.match(text(r.container), /Failed to load photos/);
  assert.equal(toasts.value[0]?.description, 'Failed to load photos');
  await r.unmount();
});

test('"Load More Media" reads "Loading..." while fetching and appends the next page', async () => {
  answer = (url) => page(Number(new URL(url, 'http://x').searchParams.get('offset')), 25);
  const r = await render(<GalleryPage />);
  await actAsync();
  const c = r.container;
  assert.equal(c.querySelectorAll('.gallery-grid li').length, 20);
  const d = deferred();
  answer = () => d.promise;
  await actAsync(() => button(c, 'Load More Media')!.click());
  assert.equal(calls.at(-1), '/api/photos?limit=20&offset=20');
  assert.ok(button(c, 'Loading...'), 'button reads Loading...');
  await actAsync(() => d.resolve(page(20, 25)));
  assert.equal(c.querySelectorAll('.gallery-grid li').length, 25);
  assert.equal(button(c, 'Load More Media'), undefined);
  assert.equal(button(c, 'Loading...'), undefined);
  await r.unmount();
});

test('a failed "Load More" keeps the grid and shows the Error toast', async () => {
  answer = () => page(0, 25);
  const r = await render(<GalleryPage />);
  await actAsync();
  answer = () => new Response('', { status: 503, statusText: 'Service Unavailable' });
  await actAsync(() => button(r.container, 'Load More Media')!.click());
  assert.equal(r.container.querySelectorAll('.gallery-grid li').length, 20);
  assert.doesNotMatch(text(r.container), /Unable to Load Gallery/);
  assert.equal(toasts.value.at(-1)?.description, 'Failed to fetch photos: Service Unavailable');
  await r.unmount();
});

test('Refresh loads the first page again', async () => {
  answer = () => page(0, 1);
  const r = await render(<GalleryPage />);
  await actAsync();
  answer = () => page(0, 4);
  await actAsync(() => button(r.container, 'Refresh')!.click());
  // The filter's one-photo probes (are there highlights?) and the shared film's one question aside.
  assert.deepEqual(calls.filter((u) => !u.includes('limit=1&') && u !== '/api/keepsakes/film'), ['/api/photos?limit=20&offset=0', '/api/photos?limit=20&offset=0']);
  assert.equal(r.container.querySelectorAll('.gallery-grid li').length, 4);
  await r.unmount();
});
