import { render, text } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PhotoThumb } from '../../client/components/admin/PhotoThumb.js';
import { GalleryGrid } from '../../client/components/guest/GalleryGrid.js';
import { MediaViewer } from '../../client/components/guest/MediaViewer.js';
import { photo } from './admin-fixtures.js';
import type { GalleryItem } from '../../common/api-types.js';

const item = (i: number, over: Partial<GalleryItem>): GalleryItem => ({
  id: `m${i}`, content_type: 'image/jpeg', thumbnail_url: `/media/m${i}/thumb?v=1`, backblaze_url: `/media/m${i}/display?v=1`,
  original_filename: `IMG_${i}.jpg`, upload_timestamp: '2026-06-20T18:00:00Z', date_taken: null, camera_make: null, camera_model: null,
  width: 640, height: 480, moment: null, uploader_name: null, duration: null, hearts: 0, hearted: false, highlighted: false, challenge: null, table: null, ...over,
});

test('admin: a video still being re-encoded says "Preparing video" over its poster', async () => {
  const r = await render(<PhotoThumb photo={photo({ content_type: 'video/quicktime', status: 'processing', display_url: null })} playable />);
  assert.equal(text(r.container.querySelector('[data-testid="preparing-video"]')), 'Preparing video');
  assert.ok(r.container.querySelector('img'), 'the poster shows meanwhile');
  assert.equal(r.container.querySelector('video'), null, 'nothing to play yet');
  await r.unmount();
});

test('admin: a ready video plays its web copy in place, not while selecting', async () => {
  const p = photo({ content_type: 'video/mp4', status: 'complete', display_url: '/media/v1/display?v=1', thumbnail_url: '/media/v1/thumb?v=1' });
  const r = await render(<PhotoThumb photo={p} playable />);
  const v = r.container.querySelector('video');
  assert.equal(v?.getAttribute('src'), '/media/v1/display?v=1');
  assert.equal(v?.getAttribute('poster'), '/media/v1/thumb?v=1');
  assert.equal(r.container.querySelector('[data-testid="preparing-video"]'), null);
  await r.unmount();
  const selecting = await render(<PhotoThumb photo={p} />);
  assert.equal(selecting.container.querySelector('video'), null);
  await selecting.unmount();
});

test('admin: a photo whose processing failed says it cannot be shown, never an empty box', async () => {
  const r = await render(<PhotoThumb photo={photo({ status: 'error', thumbnail_url: null, display_url: null, processing_error: 'The image could not be processed: bad data' })} />);
  assert.match(text(r.container), /This photo cannot be shown/);
  assert.equal(r.container.querySelector('[data-placeholder="error"]')?.getAttribute('title'), 'The image could not be processed: bad data');
  await r.unmount();
});

test('gallery: an approved photo without any image says it cannot be shown; a video keeps its tile', async () => {
  const broken = item(1, { thumbnail_url: null, backblaze_url: null, original_filename: 'broken.jpg' });
  const clip = item(2, { content_type: 'video/mp4', thumbnail_url: null, backblaze_url: '/media/m2/display?v=1', duration: 4.2 });
  const r = await render(<GalleryGrid items={[broken, clip]} onOpen={() => {}} onHeart={() => {}} />);
  const tiles = [...r.container.querySelectorAll('.gallery-tile')];
  assert.match(text(tiles[0]), /This photo cannot be shown/);
  assert.doesNotMatch(text(tiles[1]), /cannot be shown/);
  await r.unmount();
});

test('viewer: a photo without any image says it cannot be shown instead of loading forever', async () => {
  const r = await render(<MediaViewer item={item(3, { thumbnail_url: null, backblaze_url: null })} onClose={() => {}} onHeart={() => {}} />);
  assert.match(text(r.container), /This photo cannot be shown/);
  assert.doesNotMatch(text(r.container), /Loading image/);
  assert.equal(r.container.querySelector('.viewer-media img'), null);
  await r.unmount();
});
