import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { summaryText } from '../../client/uploads/format.js';
import { NOT_KEPT } from '../../client/uploads/messages.js';
import { fakeFile, flush } from './upload-engine-fakes.js';
import { FakeStore, pageLoad, ResumableServer } from './upload-persist-fakes.js';

const BIG = 2 * CHUNK_SIZE + 1000;

/** First page load: three files, the big one cut off after its first chunk was acknowledged. */
async function firstLoad() {
  const store = new FakeStore();
  const server = new ResumableServer();
  const first = pageLoad(store, server, 'session-A');
  await first.engine.restore(store);
  server.intercept = (r) => (r.path === '/api/upload-chunk' && Number(r.field('chunk_start')) > 0 ? 'hang' : undefined);
  first.engine.addFiles([fakeFile(BIG, 'speeches.mp4', 'video/mp4'), fakeFile(300, 'a.jpg'), fakeFile(400, 'b.jpg')]);
  await first.clock.advance(5000);
  await flush();
  return { store, server, first };
}

test('after a restart, unfinished files come back and resume from the server offset with the same upload_id and session', async () => {
  const { store, server, first } = await firstLoad();
  const big = first.engine.items[0];
  assert.equal(big.status, 'uploading');
  assert.equal(server.held.get(`session-A/${big.uploadId}`), CHUNK_SIZE, 'first chunk acknowledged');
  assert.deepEqual(first.engine.items.slice(1).map((i) => i.status), ['complete', 'complete']);
  assert.equal(store.recs.size, 3);
  assert.equal(store.files.size, 1, 'bytes of received files are let go; the unfinished one is kept');

  // The page is reloaded: a new engine with a new session id, the same store.
  server.intercept = () => undefined;
  const second = pageLoad(store, server, 'session-B');
  await second.engine.restore(store);
  assert.deepEqual(
    second.engine.items.map((i) => [i.file.name, i.file.size, i.status]),
    [
      ['speeches.mp4', BIG, 'uploading'],
      ['a.jpg', 300, 'complete'],
      ['b.jpg', 400, 'complete'],
    ],
  );
  assert.equal(second.engine.box, 'uploading');
  await second.clock.advance(5000);
  const back = second.engine.items[0];
  assert.equal(back.status, 'complete');
  assert.equal(back.uploadId, big.uploadId);
  assert.equal(back.sessionId, 'session-A');

  const reqs = second.wire.requests;
  const offset = reqs.find((r) => r.path === '/api/upload-chunk/offset')!;
  assert.equal(offset.query.get('upload_id'), big.uploadId);
  assert.equal(offset.query.get('session_id'), 'session-A');
  const chunks = reqs.filter((r) => r.path === '/api/upload-chunk');
  assert.deepEqual(chunks.map((c) => Number(c.field('chunk_start'))), [CHUNK_SIZE, 2 * CHUNK_SIZE], 'resumed from the offset');
  assert.ok(chunks.every((c) => c.field('upload_id') === big.uploadId && c.field('session_id') === 'session-A'));
  assert.equal(reqs.filter((r) => r.path === '/api/upload').length, 0, 'finished files are not sent again');
  assert.deepEqual(server.created.sort(), ['a.jpg', 'b.jpg', 'speeches.mp4'], 'each file created exactly once');
  assert.equal(store.files.size, 0);
});

test('a file the server holds but had not finished processing resumes its status polling after a reload', async () => {
  const store = new FakeStore();
  const server = new ResumableServer();
  let done = false;
  server.intercept = (r) => (r.path.endsWith('/status') && !done ? { status: 200, statusText: '', body: JSON.stringify({ success: true, status: 'processing' }) } : undefined);
  const first = pageLoad(store, server, 'session-A');
  await first.engine.restore(store);
  first.engine.addFiles([fakeFile(100, 'slow.jpg')]);
  await first.clock.advance(3000);
  assert.equal(first.engine.items[0].status, 'processing');
  await flush();

  done = true;
  const second = pageLoad(store, server, 'session-B');
  await second.engine.restore(store);
  assert.equal(second.engine.items[0].status, 'processing');
  await second.clock.advance(1000);
  assert.equal(second.engine.items[0].status, 'complete');
  assert.equal(second.wire.requests.filter((r) => r.method === 'POST').length, 0);
});

test('Clear Completed forgets the stored files too; a fresh page then starts empty', async () => {
  const { store, server, first } = await firstLoad();
  first.engine.clearCompleted();
  await flush();
  assert.deepEqual([...store.recs.values()].map((r) => r.name), ['speeches.mp4']);
  server.intercept = () => undefined;
  const second = pageLoad(store, server, 'session-B');
  await second.engine.restore(store);
  await second.clock.advance(5000);
  second.engine.clearCompleted();
  await flush();
  assert.equal(store.recs.size, 0);
  const third = pageLoad(store, server, 'session-C');
  await third.engine.restore(store);
  assert.deepEqual(third.engine.items, []);
  assert.equal(third.engine.box, 'idle');
});

test('when the browser refuses to store the files, the guest is told once and the uploads go on', async () => {
  const store = new FakeStore();
  store.refuse = true;
  const server = new ResumableServer();
  const page = pageLoad(store, server, 'session-A');
  await page.engine.restore(store);
  page.engine.addFiles([fakeFile(100, 'a.jpg'), fakeFile(200, 'b.jpg')]);
  await page.clock.advance(3000);
  assert.deepEqual(page.notices.filter((n) => n.title === NOT_KEPT.title).length, 1);
  assert.deepEqual(page.engine.items.map((i) => i.status), ['complete', 'complete']);
  assert.equal(store.recs.size, 0, 'no record without its file');

  // No IndexedDB at all: the same single notice.
  const bare = pageLoad(store, server, 'session-B');
  await bare.engine.restore(null);
  bare.engine.addFiles([fakeFile(100, 'c.jpg')]);
  await bare.clock.advance(3000);
  assert.equal(bare.notices.filter((n) => n.title === NOT_KEPT.title).length, 1);
  assert.equal(bare.engine.items[0].status, 'complete');
});

test('the summary line counts what the server holds', async () => {
  const { first } = await firstLoad();
  assert.equal(summaryText(first.engine.items), '2 of 3 received, 1 still uploading');
  const store = new FakeStore();
  const server = new ResumableServer();
  const page = pageLoad(store, server, 'session-A');
  page.engine.addFiles(Array.from({ length: 7 }, (_, i) => fakeFile(100 + i, `p${i}.jpg`)));
  await page.clock.advance(3000);
  assert.equal(summaryText(page.engine.items), 'All 7 files safely received');
  assert.equal(summaryText(page.engine.items.slice(0, 1)), 'Your file is safely received');
  assert.equal(summaryText([...page.engine.items.slice(0, 5), { ...page.engine.items[5], status: 'retrying' }, { ...page.engine.items[6], status: 'error' }]), '5 of 7 received, 1 still uploading, 1 failed');
});
