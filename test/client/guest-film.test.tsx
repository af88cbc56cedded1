import { actAsync, render } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, test } from 'node:test';
import { GalleryPage } from '../../client/pages/GalleryPage.js';
import { galleryItem as item } from './admin-fixtures.js';

// The couple's film on the gallery page: only while they share it, asked for after the first
// photos, with a player that fetches nothing before play.
const realFetch = globalThis.fetch;
let calls: string[] = [];
let film: { url: string } | null = null;

beforeEach(() => {
  calls = [];
  globalThis.fetch = (async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url === '/api/keepsakes/film') return Response.json({ success: true, film });
    return Response.json({ success: true, photos: [item(0), item(1)], pagination: { total: 2, limit: 20, offset: 0, has_more: false } });
  }) as typeof fetch;
});
afterEach(() => {
  globalThis.fetch = realFetch;
});

async function settled(c: HTMLElement, check: () => boolean) {
  for (let i = 0; i < 50 && !check(); i++) await actAsync(() => new Promise((r) => setTimeout(r, 20)));
  return c;
}

test('a shared film: a card with its player under the heading, asked for after the first photos, loading nothing before play', async () => {
  film = { url: '/api/keepsakes/film/abc.mp4' };
  const r = await render(<GalleryPage />);
  const c = await settled(r.container, () => !!r.container.querySelector('[data-testid="shared-film"] video'));
  const card = c.querySelector('[data-testid="shared-film"]')!;
  assert.ok(card, 'the film card');
  assert.equal(card.querySelector('h2')!.textContent, 'The film of the day');
  const video = card.querySelector('video')!;
  assert.equal(video.getAttribute('src'), '/api/keepsakes/film/abc.mp4');
  assert.equal(video.getAttribute('preload'), 'none');
  assert.ok(video.hasAttribute('controls'));
  assert.equal(video.getAttribute('aria-labelledby'), card.querySelector('h2')!.id);
  assert.ok(calls.indexOf('/api/keepsakes/film') > calls.findIndex((u) => u.startsWith('/api/photos')), 'after the photos');
  assert.equal(calls.filter((u) => u === '/api/keepsakes/film').length, 1);
  await r.unmount();
});

test('no shared film: no card', async () => {
  film = null;
  const r = await render(<GalleryPage />);
  const c = await settled(r.container, () => calls.includes('/api/keepsakes/film'));
  await actAsync(() => new Promise((res) => setTimeout(res, 50)));
  assert.ok(calls.includes('/api/keepsakes/film'));
  assert.equal(c.querySelector('[data-testid="shared-film"]'), null);
  assert.equal(c.querySelectorAll('.gallery-grid img').length, 2);
  await r.unmount();
});
