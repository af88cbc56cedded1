// The archive is written while it is downloaded: headers first, reads paced by the client,
// files closed when the client goes away or the server shuts down.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { download, placePhoto, sparseFile, type PlacedPhoto } from './export-fixtures.js';

const BIG = 512 * 1024 * 1024;
let s: TestServer;
let admin: TestClient;
let big: PlacedPhoto;

before(async () => {
  ({ s, admin } = await serverWithAdmin());
  await placePhoto(s, { source: sample('Canon_40D.jpg'), is_visible: 1 });
  big = await placePhoto(s, { create: sparseFile(BIG, 'ceremony'), original_filename: 'ceremony.mp4', content_type: 'video/mp4', is_visible: 0 });
});
after(() => s.close());

/** Bytes this process has read from files so far (the server runs in it). */
function bytesRead(): number {
  return Number(/rchar:\s*(\d+)/.exec(fs.readFileSync('/proc/self/io', 'utf8'))![1]);
}

/** How many descriptors of this process are open on the file. */
function openHandles(file: string): number {
  let count = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      if (fs.readlinkSync(`/proc/self/fd/${fd}`) === file) count++;
    } catch {
      /* closed while listing */
    }
  }
  return count;
}

/** Waits for `check` to hold (up to 15 s on a loaded machine); judged on the same look that ended the wait. */
async function until(check: () => boolean, what: string): Promise<void> {
  let ok = check();
  for (let i = 0; i < 300 && !ok; i++) {
    await sleep(50);
    ok = check();
  }
  assert.ok(ok, what);
}

/** Starts a download, takes the first chunk, then stops reading (a slow or stalled client). */
function stalledDownload(): Promise<{ res: http.IncomingMessage; first: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${s.url}/admin/api/export.zip?scope=all`, { headers: { cookie: admin.cookieHeader() } }, (res) => {
      res.once('data', (first: Buffer) => {
        res.pause();
        resolve({ res, first });
      });
    });
    req.on('error', reject);
  });
}

test('headers and the first entry arrive at once; a stalled client stalls the reading of originals', async () => {
  const before = bytesRead();
  const { res, first } = await stalledDownload();
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/zip');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="Emma-and-James-wedding-photos-/);
  assert.equal(first.subarray(0, 4).toString('binary'), 'PK\x03\x04', 'a ZIP local header comes first');
  await until(() => openHandles(big.file) === 1, 'the big original is being read');
  await sleep(1000);
  const read = bytesRead() - before;
  assert.ok(read < BIG / 4, `only what the client can take is read (${read} bytes of ${BIG})`);
  res.destroy();
  await until(() => openHandles(big.file) === 0, 'the original is closed once the client goes away');
  // The server carries on.
  const health = await admin.get('/admin/api/me');
  assert.equal(health.status, 200);
});

test('a download that is interrupted can simply be started again and completes', async () => {
  const { res } = await stalledDownload();
  // Cut while the original is being read (before that, there would be nothing to let go of).
  await until(() => openHandles(big.file) === 1, 'the first attempt is reading the original');
  res.destroy();
  await until(() => openHandles(big.file) === 0, 'the first attempt let go of the file');
  const { status, bytes } = await download(`${s.url}/admin/api/export.zip?scope=all`, { cookie: admin.cookieHeader() }, '/dev/null');
  assert.equal(status, 200);
  assert.ok(bytes > BIG, `the whole archive came through (${bytes} bytes)`);
});

test('shutdown ends a running download instead of waiting for it', async () => {
  const { res } = await stalledDownload();
  const ended = new Promise<void>((resolve) => res.on('close', resolve));
  await until(() => openHandles(big.file) === 1, 'the download is under way');
  const closed = s.close(60_000).then(() => 'closed' as const);
  const winner = await Promise.race([closed, sleep(20_000).then(() => 'still waiting' as const)]);
  assert.equal(winner, 'closed');
  // A paused client never reads its socket, so it would never notice the end: read on.
  res.resume();
  await ended;
  assert.equal(openHandles(big.file), 0);
});
