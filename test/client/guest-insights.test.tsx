import { text, render } from '../helpers/dom.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Stats } from '../../common/api-types.js';
import { EMPTY_STATS } from '../../client/api/guest.js';
import { InsightsCard } from '../../client/components/guest/InsightsCard.js';

const stats = (p: Partial<Stats>): Stats => ({ ...EMPTY_STATS, ...p });
const value = (c: HTMLElement, id: string) => c.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;

test('the insights card is hidden when total_photos is 0', async () => {
  const r = await render(<InsightsCard stats={stats({ total_photos: 0, total_size_mb: 12 })} />);
  assert.equal(r.container.innerHTML, '');
  await r.unmount();
});

test('it shows total shared in MB, the image count and unique devices; videos only above 0', async () => {
  const r = await render(<InsightsCard stats={stats({ total_photos: 7, total_size_mb: 23.456, media_breakdown: { images: 7, videos: 0 }, unique_devices: 3 })} />);
  const c = r.container;
  assert.match(text(c), /Collection Insights/);
  assert.equal(value(c, 'insights-size'), '23.5 MB');
  assert.equal(value(c, 'insights-images'), '7');
  assert.equal(value(c, 'insights-devices'), '3');
  assert.equal(value(c, 'insights-videos'), null);
  assert.doesNotMatch(text(c), /Videos/);
  await r.unmount();
  const r2 = await render(<InsightsCard stats={stats({ total_photos: 9, total_size_mb: 80, media_breakdown: { images: 7, videos: 2 } })} />);
  assert.equal(value(r2.container, 'insights-videos'), '2');
  assert.equal(text(r2.container.querySelector('[data-testid="insights-videos"]')?.previousElementSibling), 'Videos');
  await r2.unmount();
});

test('top 4 cameras with counts, then "+N more devices"', async () => {
  const cameras = ['Canon EOS 40D', 'iPhone 6', 'NIKON D70', 'PENTAX K10D', 'Jolla', 'DMC-FZ30'].map((name, i) => ({ name, count: 10 - i }));
  const r = await render(<InsightsCard stats={stats({ total_photos: 45, cameras, unique_devices: 6 })} />);
  const rows = [...r.container.querySelectorAll('.insights-cameras li')].map((li) => [text(li.querySelector('.camera-name')), text(li.querySelector('.camera-count'))]);
  assert.deepEqual(rows, [['Canon EOS 40D', '10'], ['iPhone 6', '9'], ['NIKON D70', '8'], ['PENTAX K10D', '7']]);
  assert.match(text(r.container), /\+2 more devices/);
  await r.unmount();
  const r2 = await render(<InsightsCard stats={stats({ total_photos: 4, cameras: cameras.slice(0, 4) })} />);
  assert.equal(r2.container.querySelectorAll('.insights-cameras li').length, 4);
  assert.doesNotMatch(text(r2.container), /more devices/);
  await r2.unmount();
});
