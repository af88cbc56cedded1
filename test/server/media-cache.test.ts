import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { MediaCache } from '../../server/photos/media-cache.js';
import { tempDir } from '../helpers/server.js';

test('the media cache keeps the most recently used files within its byte budget and streams larger ones', async () => {
  const dir = tempDir('wedding-media-cache-');
  const file = (name: string, size: number) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, Buffer.alloc(size, name.charCodeAt(0)));
    return p;
  };
  const [a, b, c, big] = [file('a.webp', 40), file('b.webp', 40), file('c.webp', 40), file('big.webp', 80)];
  const cache = new MediaCache(100, 60);
  assert.equal((await cache.get(a))!.body.length, 40);
  await cache.get(b);
  await cache.get(a); // a is now the most recently used
  await cache.get(c); // over budget: b, the least recently used, goes
  assert.deepEqual(cache.size, { files: 2, bytes: 80 });
  fs.rmSync(a);
  fs.rmSync(b);
  assert.equal((await cache.get(a))!.body[0], 'a'.charCodeAt(0), 'a is still held');
  await assert.rejects(cache.get(b), { code: 'ENOENT' }, 'b was dropped and is read again');
  assert.equal(await cache.get(big), null, 'a file over the per-file limit is not kept');
  assert.deepEqual(cache.size, { files: 2, bytes: 80 });
});
