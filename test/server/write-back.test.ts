// Upload bytes go to the disk (fdatasync) before the phone is told they arrived: a rush's data is
// then written as it comes instead of in one multi-gigabyte burst that makes every other read and
// write of the disk wait (server/storage/write-back.ts), and an answered upload survives a power cut.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { uploadChunk, uploadFile } from '../helpers/uploads.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

/** Every fdatasync this process makes while `body` runs: the file and its size at that moment. */
async function watchingSyncs<T>(body: () => Promise<T>): Promise<{ result: T; synced: { file: string; size: number }[] }> {
  const synced: { file: string; size: number }[] = [];
  const original = fs.fdatasync;
  (fs as { fdatasync: typeof fs.fdatasync }).fdatasync = ((fd: number, cb: fs.NoParamCallback) => {
    synced.push({ file: fs.readlinkSync(`/proc/self/fd/${fd}`), size: fs.fstatSync(fd).size });
    return original(fd, cb);
  }) as typeof fs.fdatasync;
  try {
    return { result: await body(), synced };
  } finally {
    (fs as { fdatasync: typeof fs.fdatasync }).fdatasync = original;
  }
}

test('a chunk and a single-request upload are written to the disk before they are answered', async () => {
  const incoming = path.join(s.dataDir, 'media', 'incoming');
  const data = fs.readFileSync(sample('Canon_40D.jpg'));
  const half = Math.floor(data.length / 2);
  const chunk = await watchingSyncs(() =>
    uploadChunk(s.url, data.subarray(0, half), { chunk_start: 0, chunk_end: half, total_size: data.length, filename: 'canon.jpg', session_id: 'sync', is_last_chunk: false, upload_id: 'sync-1' }),
  );
  assert.equal(chunk.result.status, 200, JSON.stringify(chunk.result.body));
  assert.ok(
    chunk.synced.some((x) => x.file.startsWith(incoming) && x.size === half),
    `the partial file with the chunk's ${half} bytes was synced before the answer: ${JSON.stringify(chunk.synced)}`,
  );

  const photo = fs.readFileSync(sample('Nikon_D70.jpg'));
  const single = await watchingSyncs(() => uploadFile(s.url, photo, 'nikon.jpg'));
  assert.equal(single.result.status, 201, JSON.stringify(single.result.body));
  assert.ok(
    single.synced.some((x) => x.file.startsWith(s.dataDir) && x.size === photo.length),
    `the whole upload (${photo.length} bytes) was synced before the answer: ${JSON.stringify(single.synced)}`,
  );
});
