// The wall's slideshow with the clock under the test's control: a photo that just became visible
// cuts the current slide short once it has been up 3 s, and a burst of arrivals is queued.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { WallPlayer } from '../../client/components/wall/player.js';
import { wallItem } from '../helpers/wall-items.js';

const item = wallItem;
const flush = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

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

const player = () => {
  const p = new WallPlayer({ intervalMs: 8000, fadeMs: 100, videoMaxMs: 300_000, preload: () => Promise.resolve(), max: 50 });
  return { p, current: () => p.getState().current?.item.id };
};

test('an arrival during a fresh slide shows once that slide has been up 3 s, not after the full 8 s', async () => {
  await withClock(async (tick) => {
    const { p, current } = player();
    p.setItems([item('a'), item('b')]);
    await flush();
    assert.equal(current(), 'a');
    await tick(1000);
    p.add(item('new'));
    await tick(1999);
    assert.equal(current(), 'a', 'at least 3 s on screen');
    await tick(1);
    assert.equal(current(), 'new');
    // The arrival itself gets the normal interval, then the cycle goes on.
    await tick(7999);
    assert.equal(current(), 'new');
    await tick(1);
    assert.notEqual(current(), 'new');
  });
});

test('an arrival after the slide has been up 3 s shows at once', async () => {
  await withClock(async (tick) => {
    const { p, current } = player();
    p.setItems([item('a'), item('b')]);
    await flush();
    await tick(5000);
    p.add(item('new'));
    await tick(0);
    assert.equal(current(), 'new');
  });
});

test('a burst of arrivals is queued: each is up 3 s, none skipped, then the normal interval', async () => {
  await withClock(async (tick) => {
    const { p, current } = player();
    p.setItems([item('a')]);
    await flush();
    await tick(4000);
    for (const id of ['n1', 'n2', 'n3']) p.add(item(id));
    await tick(0);
    const seen: string[] = [current()!];
    for (let i = 0; i < 2; i++) {
      await tick(2999);
      assert.equal(current(), seen[seen.length - 1], 'not flickered through');
      await tick(1);
      seen.push(current()!);
    }
    assert.deepEqual(seen, ['n1', 'n2', 'n3']);
    // Nothing queued any more: the last arrival stays the whole interval.
    await tick(7999);
    assert.equal(current(), 'n3');
  });
});

test('a playing video is cut short for an arrival, after 3 s', async () => {
  await withClock(async (tick) => {
    const { p, current } = player();
    p.setItems([item('v', 'video/mp4'), item('a')]);
    await flush();
    const key = p.getState().current!.key;
    p.videoDuration(key, 60);
    await tick(500);
    p.add(item('new'));
    await tick(2499);
    assert.equal(current(), 'v');
    await tick(1);
    assert.equal(current(), 'new');
  });
});
