import { actAsync, render, text, until } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import type { GalleryItem } from '../../common/api-types.js';
import { cameraName } from '../../client/components/guest/MediaViewer.js';
import { GalleryPage } from '../../client/pages/GalleryPage.js';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
});

const photo: GalleryItem = {
  id: 'a1',
  content_type: 'image/jpeg',
  thumbnail_url: '/media/thumb/a1.webp',
  backblaze_url: '/media/original/a1.jpg',
  original_filename: 'Canon_40D.jpg',
  upload_timestamp: '2025-06-07T21:15:00Z',
  date_taken: '2008-05-30T15:56:01Z',
  camera_make: 'Canon',
  camera_model: 'Canon EOS 40D',
  width: 100,
  height: 68,
  moment: null,
  uploader_name: null,
  duration: null,
  hearts: 0,
  hearted: false,
  highlighted: false,
  challenge: null,
  table: null,
};
const clip: GalleryItem = {
  ...photo,
  id: 'v1',
  content_type: 'video/mp4',
  thumbnail_url: '/media/poster/v1.webp',
  backblaze_url: '/media/original/v1.mp4',
  original_filename: 'first-dance.mp4',
  date_taken: null,
  camera_make: null,
  camera_model: null,
  width: null,
  height: null,
};

async function gallery(items: GalleryItem[]) {
  globalThis.fetch = (async () => Response.json({ success: true, photos: items, pagination: { total: items.length, limit: 20, offset: 0, has_more: false } })) as typeof fetch;
  const r = await render(<GalleryPage />);
  await actAsync();
  return r;
}
const dialog = () => document.querySelector('[role="dialog"]');
const field = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;

test('a photo opens in the viewer with its details; Escape closes and focus returns to the thumbnail', async () => {
  const r = await gallery([photo, clip]);
  const tile = r.container.querySelector('button[aria-label="Open photo Canon_40D.jpg"]') as HTMLButtonElement;
  tile.focus();
  await actAsync(() => tile.click());
  // The viewer is a lazy part: its module may take a few turns to arrive.
  const d = await until(dialog, 'viewer open');
  assert.equal(d!.getAttribute('aria-modal'), 'true');
  assert.equal(document.activeElement?.getAttribute('aria-label'), 'Close', 'focus moved into the viewer');
  assert.match(text(d), /Loading image\.\.\./);
  const img = d!.querySelector('.viewer-media img') as HTMLImageElement;
  assert.equal(img.getAttribute('src'), '/media/original/a1.jpg');
  await actAsync(() => img.dispatchEvent(new Event('load')));
  assert.doesNotMatch(text(dialog()), /Loading image/);
  assert.equal(field('viewer-camera'), 'Canon EOS 40D');
  assert.equal(field('viewer-dimensions'), '100 × 68');
  assert.ok(field('viewer-taken')?.includes('2008'), 'taken-at time');
  assert.ok(field('viewer-uploaded')?.includes('2025'), 'upload time');
  await actAsync(() => document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true })));
  assert.equal(dialog(), null);
  assert.equal(document.activeElement, tile, 'focus back on the thumbnail');
  await r.unmount();
});

test('the close button and a click outside close the viewer', async () => {
  const r = await gallery([photo]);
  const tile = r.container.querySelector('.gallery-tile') as HTMLButtonElement;
  await actAsync(() => tile.click());
  await until(dialog, 'viewer open');
  await actAsync(() => (document.querySelector('button[aria-label="Close"]') as HTMLButtonElement).click());
  assert.equal(dialog(), null);
  await actAsync(() => tile.click());
  assert.ok(dialog());
  await actAsync(() => (dialog()!.querySelector('.viewer-details') as HTMLElement).click());
  assert.ok(dialog(), 'a click inside keeps it open');
  await actAsync(() => (document.querySelector('[data-testid="viewer-backdrop"]') as HTMLElement).click());
  assert.equal(dialog(), null);
  await r.unmount();
});

test('a video plays in a <video controls playsinline> with the fallback text, and its loading text', async () => {
  const r = await gallery([clip]);
  const tile = r.container.querySelector('button[aria-label="Open video first-dance.mp4"]') as HTMLButtonElement;
  assert.ok(tile.querySelector('.gallery-tile-play'), 'video tiles are marked');
  await actAsync(() => tile.click());
  const video = (await until(dialog, 'viewer open')).querySelector('video') as HTMLVideoElement;
  assert.equal(video.getAttribute('src'), '/media/original/v1.mp4');
  assert.ok(video.hasAttribute('controls'));
  assert.ok(video.hasAttribute('playsinline'));
  assert.equal(text(video), 'Your browser does not support the video tag.');
  assert.match(text(dialog()), /Loading video\.\.\./);
  assert.equal(field('viewer-camera'), null, 'no camera line without a camera');
  assert.equal(field('viewer-dimensions'), null, 'no size line without width and height');
  await actAsync(() => video.dispatchEvent(new Event('loadedmetadata')));
  assert.doesNotMatch(text(dialog()), /Loading video/);
  await actAsync(() => video.dispatchEvent(new Event('error')));
  assert.match(text(dialog()), /Your browser does not support the video tag\./);
  assert.equal(dialog()!.querySelector('video'), null);
  await r.unmount();
});

test('camera names do not repeat the make (same rule as the stats)', () => {
  assert.equal(cameraName('Canon', 'Canon EOS 40D'), 'Canon EOS 40D');
  assert.equal(cameraName('NIKON CORPORATION', 'NIKON D70'), 'NIKON D70');
  assert.equal(cameraName('Apple', 'iPhone 6'), 'Apple iPhone 6');
  assert.equal(cameraName(null, 'X100'), 'X100');
  assert.equal(cameraName('Jolla', null), 'Jolla');
  assert.equal(cameraName(null, null), null);
});
