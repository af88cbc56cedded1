// The wall's slideshow logic (client/components/wall) in plain Node: no DOM needed.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { WallPlayer } from '../../client/components/wall/player.js';
import { Rotation } from '../../client/components/wall/rotation.js';
import { wallItem } from '../helpers/wall-items.js';

const item = wallItem;
const ids = (n: number, prefix = 'p') => Array.from({ length: n }, (_, i) => item(`${prefix}${i}`));

test('the rotation cycles in order and a new arrival comes next, once', () => {
  const r = new Rotation();
  r.replace(ids(3));
  assert.equal(r.next()!.id, 'p0');
  r.add(item('new'));
  assert.equal(r.next()!.id, 'new');
  assert.deepEqual([r.next()!.id, r.next()!.id, r.next()!.id, r.next()!.id], ['p1', 'p2', 'new', 'p0']);
});

test('the rotation keeps only the newest `max` and forgets what was removed', () => {
  const r = new Rotation(5);
  r.replace(ids(8));
  assert.equal(r.size, 5);
  for (let i = 0; i < 20; i++) r.add(item(`n${i}`));
  assert.equal(r.size, 5);
  assert.ok(r.queued <= 5);
  assert.ok(r.has('n19') && !r.has('n14'));
  assert.equal(r.remove('n19'), true);
  assert.equal(r.remove('n19'), false);
  const seen = new Set(Array.from({ length: 12 }, () => r.next()!.id));
  assert.deepEqual([...seen].sort(), ['n15', 'n16', 'n17', 'n18']);
});

function player(intervalMs = 1000) {
  const p = new WallPlayer({ intervalMs, fadeMs: 100, videoMaxMs: 60_000, preload: () => Promise.resolve(), max: 50 });
  const current = () => p.getState().current?.item.id;
  return { p, current };
}
const flush = () => new Promise<void>((r) => setImmediate(r));

test('photos advance on the interval; a photo approved now is shown next; a hidden one leaves at once', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { p, current } = player();
    p.setItems(ids(3));
    await flush();
    assert.equal(current(), 'p0');
    mock.timers.tick(1000);
    await flush();
    assert.equal(current(), 'p1');
    p.add(item('fresh'));
    assert.equal(current(), 'p1', 'the photo on screen keeps its time');
    mock.timers.tick(1000);
    await flush();
    assert.equal(current(), 'fresh');
    p.remove('fresh');
    await flush();
    assert.equal(current(), 'p2', 'skipped at once');
    assert.equal(p.getState().previous, null, 'a hidden photo does not even fade out');
    p.remove('p0');
    p.remove('p1');
    p.remove('p2');
    await flush();
    assert.equal(current(), undefined);
    p.dispose();
  } finally {
    mock.timers.reset();
  }
});

test('a video waits for its end (not the photo interval), with a cap when it never ends', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { p, current } = player();
    p.setItems([item('v', 'video/mp4'), item('a')]);
    await flush();
    assert.equal(current(), 'v');
    const key = p.getState().current!.key;
    p.videoDuration(key, 12);
    mock.timers.tick(5000);
    await flush();
    assert.equal(current(), 'v', 'still playing');
    p.ended(key);
    await flush();
    assert.equal(current(), 'a');
    mock.timers.tick(1000);
    await flush();
    assert.equal(current(), 'v');
    mock.timers.tick(60_000); // never reported its end
    await flush();
    assert.equal(current(), 'a');
    p.dispose();
  } finally {
    mock.timers.reset();
  }
});

test('an empty wall shows the first arrival at once, and dispose stops everything', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    const { p, current } = player();
    p.setItems([]);
    await flush();
    assert.equal(current(), undefined);
    p.add(item('first'));
    await flush();
    assert.equal(current(), 'first');
    const shown = p.getState().shown;
    p.add(item('second'));
    p.dispose();
    mock.timers.tick(10_000);
    await flush();
    assert.equal(p.getState().shown, shown);
  } finally {
    mock.timers.reset();
  }
});
