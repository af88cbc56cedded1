// The wall's layouts without a browser: the tile board (mosaic, magazine), the cycle, the
// remote's next/previous/show on the single slideshow, and the grid as rendered (happy-dom).
import { render } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { GalleryItem } from '../../common/api-types.js';
import { cycleAt, tilesFor } from '../../client/components/wall/layouts.js';
import { WallPlayer } from '../../client/components/wall/player.js';
import { Rotation } from '../../client/components/wall/rotation.js';
import { MAX_TILE_VIDEOS, TileBoard } from '../../client/components/wall/tile-board.js';
import { WallTiles } from '../../client/components/wall/WallTiles.js';
import { wallItem } from '../helpers/wall-items.js';

const flush = async () => {
  for (let i = 0; i < 10; i++) await Promise.resolve();
};
const photos = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => wallItem(`${prefix}${i}`) as GalleryItem);

async function withClock(fn: (tick: (ms: number) => Promise<void>) => Promise<void>) {
  mock.timers.enable({ apis: ['setTimeout', 'Date'], now: 1_000_000 });
  try {
    await fn(async (ms) => {
      mock.timers.tick(ms);
      await flush();
    });
  } finally {
    mock.timers.reset();
  }
}

const board = (items: GalleryItem[], size: number, mode: 'one' | 'all', extra: (GalleryItem | ReturnType<typeof wallItem>)[] = []) => {
  const rotation = new Rotation();
  rotation.replace([...items, ...extra]);
  const b = new TileBoard({ rotation, intervalMs: 1000, mode, preload: () => Promise.resolve() }, size);
  const ids = () => b.getState().tiles.map((t) => t.item.id);
  return { b, rotation, ids };
};

test('tiles per layout: 11 photos and the QR cell on a 16:9 mosaic, 8 on 4:3; a magazine of 4 (16:9) or 3 (4:3); the cycle goes through the three', () => {
  assert.deepEqual([tilesFor('mosaic', false), tilesFor('mosaic', true), tilesFor('magazine', false), tilesFor('magazine', true), tilesFor('single', false)], [11, 8, 4, 3, 0]);
  assert.deepEqual([0, 999, 1000, 2500, 3000].map((t) => cycleAt(t, 1000)), ['single', 'single', 'mosaic', 'magazine', 'single']);
});

test('mosaic: the tiles fill with distinct photos, then one tile changes at a time, never to a photo already up', async () => {
  await withClock(async (tick) => {
    const { b, ids } = board(photos(30), 11, 'one', [wallItem('v', 'video/mp4')]);
    b.start();
    await flush();
    assert.equal(ids().length, 11);
    assert.equal(new Set(ids()).size, 11);
    assert.ok(!ids().includes('v'), 'a video without its still stays off the tiles');
    for (let i = 0; i < 40; i++) {
      const before = ids();
      await tick(1000);
      const after = ids();
      assert.equal(new Set(after).size, 11, 'never the same photo twice, never an empty tile');
      assert.equal(after.filter((id, k) => id !== before[k]).length, 1, 'one tile at a time');
    }
    b.dispose();
  });
});

test('magazine: every tile changes together; previous puts the last set back; a hidden photo leaves its tile at once', async () => {
  await withClock(async (tick) => {
    const { b, ids, rotation } = board(photos(20), 4, 'all');
    b.start();
    await flush();
    const first = ids();
    assert.equal(new Set(first).size, 4);
    await tick(1000);
    const second = ids();
    assert.equal(second.filter((id) => first.includes(id)).length, 0, 'all four changed');
    b.previous();
    await flush();
    assert.deepEqual(ids(), first);
    b.next();
    await flush();
    assert.notDeepEqual(ids(), first);
    const gone = ids()[2];
    rotation.remove(gone);
    b.remove(gone);
    assert.equal(ids().length, 4);
    assert.ok(!ids().includes(gone));
    b.dispose();
  });
});

const clip = (id: string) => ({ ...wallItem(id, 'video/mp4'), thumbnail_url: `/media/${id}/thumb` }) as GalleryItem;

test('videos with their still get tiles, never more than two playing at once, the still loaded first', async () => {
  await withClock(async (tick) => {
    const rotation = new Rotation();
    rotation.replace([...Array.from({ length: 6 }, (_, i) => clip(`v${i}`)), ...photos(20)]);
    const loaded: string[] = [];
    const b = new TileBoard({ rotation, intervalMs: 1000, mode: 'one', preload: (i) => (loaded.push(i.id), Promise.resolve()) }, 11);
    const videos = () => b.getState().tiles.filter((t) => t.item.content_type.startsWith('video/')).length;
    b.start();
    await flush();
    assert.equal(b.getState().tiles.length, 11);
    assert.equal(videos(), MAX_TILE_VIDEOS);
    for (let i = 0; i < 40; i++) {
      await tick(1000);
      assert.ok(videos() <= MAX_TILE_VIDEOS, `${videos()} videos at once`);
    }
    assert.ok(b.getState().tiles.every((t) => loaded.includes(t.item.id)), 'every tile was loaded before it showed');
    b.dispose();
  });
});

test('fewer photos than tiles: every tile still shows a photo (some twice) rather than a blank', async () => {
  await withClock(async () => {
    const { b, ids } = board(photos(3), 8, 'one');
    b.start();
    await flush();
    assert.equal(ids().length, 8);
    assert.equal(new Set(ids()).size, 3);
    b.dispose();
  });
});

test('single: next, previous (the photo shown before), and "show this photo now", after which the cycle goes on', async () => {
  await withClock(async (tick) => {
    const p = new WallPlayer({ intervalMs: 8000, fadeMs: 100, videoMaxMs: 30_000, preload: () => Promise.resolve(), max: 50 });
    const current = () => p.getState().current?.item.id;
    p.setItems(photos(6));
    await flush();
    assert.equal(current(), 'p0');
    p.next();
    await flush();
    assert.equal(current(), 'p1');
    p.next();
    await flush();
    assert.equal(current(), 'p2');
    p.previous();
    await flush();
    assert.equal(current(), 'p1');
    p.previous();
    await flush();
    assert.equal(current(), 'p0');
    assert.equal(p.showNow('p4'), true);
    await flush();
    assert.equal(current(), 'p4');
    assert.equal(p.showNow('nope'), false);
    await tick(8000);
    assert.ok(current() && current() !== 'p4', 'the show goes on after it');
    p.dispose();
  });
});

test('single: a video is left after 30 s even when it is longer', async () => {
  await withClock(async (tick) => {
    const p = new WallPlayer({ intervalMs: 8000, fadeMs: 100, videoMaxMs: 30_000, preload: () => Promise.resolve(), max: 50 });
    p.setItems([wallItem('v', 'video/mp4'), wallItem('a')]);
    await flush();
    assert.equal(p.getState().current?.item.id, 'v');
    p.videoDuration(p.getState().current!.key, 120);
    await tick(29_999);
    assert.equal(p.getState().current?.item.id, 'v');
    await tick(1);
    assert.equal(p.getState().current?.item.id, 'a');
    p.dispose();
  });
});

test('the grid renders a cell per photo and one for the QR code and the address', async () => {
  const tiles = photos(11).map((item, i) => ({ key: i, item }));
  const r = await render(<WallTiles tiles={tiles} size={11} empty={false} names="Emma and James" />);
  const cells = [...r.container.querySelectorAll('.wall-tile[data-photo-id]')];
  assert.equal(cells.length, 11);
  assert.equal(new Set(cells.map((c) => c.getAttribute('data-photo-id'))).size, 11);
  const share = r.container.querySelector('.wall-share-cell');
  assert.ok(share?.querySelector('img.wall-qr'));
  assert.match(share?.querySelector('.wall-share-url')?.textContent ?? '', /\/live$/);
  await r.unmount();
});

test('a video tile draws its still and plays the clip over it, muted, inline and looping; leaving, it lets go of the file', async () => {
  const r = await render(<WallTiles tiles={[{ key: 1, item: clip('v1') }]} size={1} empty={false} names="Emma and James" />);
  const cell = r.container.querySelector('.wall-tile[data-photo-id="v1"]')!;
  assert.equal(cell.querySelector('img.wall-tile-media')?.getAttribute('src'), '/media/v1/thumb');
  const video = cell.querySelector('video.wall-video-over') as HTMLVideoElement;
  assert.deepEqual([video.muted, video.loop, video.hasAttribute('playsinline'), video.getAttribute('src'), video.getAttribute('poster')], [true, true, true, '/media/v1/display', '/media/v1/thumb']);
  await r.unmount();
  assert.equal(video.getAttribute('src'), null, 'the source is detached');
});
