import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE, retryDelay } from '../../client/uploads/constants.js';
import { statusText } from '../../client/uploads/format.js';
import { isRetryable } from '../../client/uploads/messages.js';
import { fakeFile, happy, json, setup, type SeenRequest } from './upload-engine-fakes.js';

test('the retry rule: SPEC fragments, case-insensitive, plus "Server temporarily unavailable"', () => {
  for (const m of [
    'Network error during upload',
    'Network error during chunk upload',
    'Chunk upload timed out after 2 minutes',
    'Request TIMEOUT',
    'Connection lost while sending',
    'CHUNK UPLOAD FAILED: 500',
    'Server temporarily unavailable',
  ]) assert.equal(isRetryable(m), true, m);
  for (const m of ['Upload failed with status 500: boom', 'Unexpected 200 response', 'Failed to parse 200 response', 'Upload timed out after 2 minutes'])
    assert.equal(isRetryable(m), false, m);
});

test('backoff is 2 s x 1.5^attempt; after 5 failed retries the item is resumable, with no toast', async () => {
  assert.deepEqual([0, 1, 2, 3, 4].map(retryDelay), [2000, 3000, 4500, 6750, 10125]);
  const { engine, server, notices, clock } = setup((r) => (r.method === 'POST' ? 'network-error' : happy(r)));
  const seen: string[] = [];
  engine.subscribe(() => {
    const t = statusText(engine.items[0]);
    if (seen.at(-1) !== t) seen.push(t);
  });
  engine.addFiles([fakeFile(100, 'a.jpg')]);
  await clock.advance(120_000);
  const times = server.uploads().map((r) => r.at);
  assert.deepEqual(times, [0, 2000, 5000, 9500, 16250, 26375]);
  const item = engine.items[0];
  assert.equal(item.status, 'error');
  assert.equal(item.isResumable, true);
  assert.equal(item.retryCount, 5);
  assert.equal(statusText(item), 'Connection issues - click retry to resume');
  assert.deepEqual(notices, []);
  for (let n = 1; n <= 5; n++) assert.ok(seen.includes(`Reconnecting... (${n}/5)`), `saw Reconnecting... (${n}/5)`);
  assert.equal(engine.box, 'idle');
});

for (const [name, status] of [['502', 502], ['503', 503], ['504', 504]] as const) {
  test(`${name} is "Server temporarily unavailable" and is retried`, async () => {
    let calls = 0;
    const { engine, notices, clock } = setup((r) => (r.path === '/api/upload' && ++calls === 1 ? { status, statusText: 'Bad Gateway', body: '' } : happy(r)));
    engine.addFiles([fakeFile(100, 'a.jpg')]);
    await clock.advance(1);
    assert.equal(engine.items[0].status, 'retrying');
    assert.equal(engine.items[0].error, 'Server temporarily unavailable');
    assert.equal(statusText(engine.items[0]), 'Reconnecting... (1/5)');
    await clock.advance(2000);
    assert.equal(calls, 2);
    assert.equal(engine.items[0].status, 'uploaded');
    assert.deepEqual(notices.map((n) => n.title), ['Upload successful!']);
  });
}

test('a chunk that times out after 2 minutes is retried; a single upload that times out is not', async () => {
  let first = true;
  const { engine, clock } = setup((r) => {
    if (r.path === '/api/upload-chunk' && first) {
      first = false;
      return 'hang';
    }
    return happy(r);
  });
  engine.addFiles([fakeFile(CHUNK_SIZE + 10, 'v.mp4', 'video/mp4')]);
  await clock.advance(119_999);
  assert.equal(engine.items[0].status, 'uploading');
  await clock.advance(1);
  assert.equal(engine.items[0].status, 'retrying');
  assert.equal(engine.items[0].error, 'Chunk upload timed out after 2 minutes');
  await clock.advance(5000);
  assert.equal(engine.items[0].status, 'complete');

  const s = setup((r) => (r.path === '/api/upload' ? 'hang' : happy(r)));
  s.engine.addFiles([fakeFile(10, 'a.jpg')]);
  await s.clock.advance(120_000);
  assert.equal(s.engine.items[0].status, 'error');
  assert.equal(s.engine.items[0].error, 'Upload timed out after 2 minutes');
  assert.deepEqual(s.notices, [{ title: 'Upload failed', description: 'Upload timed out after 2 minutes', variant: 'destructive' }]);
});

test('a failed chunk resumes from the offset the server reports', async () => {
  const size = 3 * CHUNK_SIZE;
  let failed = false;
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-chunk' && r.field('chunk_start') === String(2 * CHUNK_SIZE) && !failed) {
      failed = true;
      return 'network-error';
    }
    if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: CHUNK_SIZE });
    return happy(r);
  });
  engine.addFiles([fakeFile(size, 'v.mp4', 'video/mp4')]);
  await clock.advance(1);
  assert.equal(engine.items[0].error, 'Network error during chunk upload');
  await clock.advance(2000);
  const offsetAsk = server.requests.find((r) => r.path === '/api/upload-chunk/offset')!;
  assert.equal(offsetAsk.query.get('session_id'), 'session-1');
  assert.equal(offsetAsk.query.get('filename'), 'v.mp4');
  assert.equal(offsetAsk.query.get('total_size'), String(size));
  assert.equal(offsetAsk.query.get('upload_id'), server.uploads()[0].field('upload_id'));
  const starts = server.uploads().map((r) => Number(r.field('chunk_start')) / CHUNK_SIZE);
  assert.deepEqual(starts, [0, 1, 2, 1, 2], 'after the failure it continues from the server offset');
  await clock.advance(2000);
  assert.equal(engine.items[0].status, 'complete');
});

test('a 409 on a chunk continues from its received_bytes', async () => {
  let conflict = true;
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-chunk' && r.field('chunk_start') === String(2 * CHUNK_SIZE) && conflict) {
      conflict = false;
      return json(409, { success: false, error: 'Chunk starts past the received bytes', code: 'conflict', received_bytes: 1000 });
    }
    return happy(r);
  });
  engine.addFiles([fakeFile(3 * CHUNK_SIZE, 'v.mp4', 'video/mp4')]);
  await clock.advance(5000);
  const ranges = server.uploads().map((r) => [Number(r.field('chunk_start')), Number(r.field('chunk_end'))]);
  assert.deepEqual(ranges, [
    [0, CHUNK_SIZE],
    [CHUNK_SIZE, 2 * CHUNK_SIZE],
    [2 * CHUNK_SIZE, 3 * CHUNK_SIZE],
    [1000, 1000 + CHUNK_SIZE],
    [1000 + CHUNK_SIZE, 1000 + 2 * CHUNK_SIZE],
    [1000 + 2 * CHUNK_SIZE, 3 * CHUNK_SIZE],
  ]);
  assert.equal(engine.items[0].status, 'complete');
  assert.equal(engine.items[0].retryCount, 0, 'a 409 is not a failure');
});

test('the resume is decided on code "conflict", not on the status or the sentence', async () => {
  // An answer without the conflict code is an ordinary failure even if it is a 409 with an offset.
  const { engine, server, clock } = setup((r) =>
    r.path === '/api/upload-chunk' && r.field('chunk_start') === String(CHUNK_SIZE)
      ? json(409, { success: false, error: 'Chunk out of order: 1000 bytes received so far.', code: 'invalid_input', received_bytes: 1000 })
      : happy(r),
  );
  engine.addFiles([fakeFile(3 * CHUNK_SIZE, 'v.mp4', 'video/mp4')]);
  await clock.advance(5000);
  assert.deepEqual(
    server.uploads().map((r) => Number(r.field('chunk_start'))),
    [0, CHUNK_SIZE],
    'no jump back to received_bytes',
  );
  assert.equal(engine.items[0].status, 'error');
  assert.equal(engine.items[0].error, 'Upload failed with status 409: Chunk out of order: 1000 bytes received so far.');
});

test('Retry on a resumable item resets it and resumes from the server offset', async () => {
  let down = true;
  const { engine, server, clock } = setup((r) => {
    if (down && (r.path === '/api/upload-chunk' || r.path === '/api/upload-chunk/offset') && r.field('chunk_start') !== '0') return 'network-error';
    if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: CHUNK_SIZE });
    return happy(r);
  });
  engine.addFiles([fakeFile(2 * CHUNK_SIZE + 5, 'v.mov', 'video/quicktime')]);
  await clock.advance(60_000);
  const item = engine.items[0];
  assert.equal(item.status, 'error');
  assert.equal(item.isResumable, true);
  down = false;
  const before = server.requests.length;
  const seen: [string, number][] = [];
  engine.subscribe(() => seen.push([engine.items[0].status, engine.items[0].retryCount]));
  engine.retry(item.id);
  assert.deepEqual(seen[0], ['pending', 0], 'reset to pending with a zero retry count');
  assert.deepEqual(seen[1], ['uploading', 0], 'and restarted');
  assert.equal(engine.box, 'uploading');
  await clock.advance(1);
  const after = server.requests.slice(before).filter((r) => r.path !== '/api/upload-turn');
  assert.equal(after[0].path, '/api/upload-chunk/offset');
  assert.equal(after[1].field('chunk_start'), String(CHUNK_SIZE));
  await clock.advance(5000);
  assert.equal(engine.items[0].status, 'complete');
});

test('when the offset route says the file is complete, nothing is re-sent', async () => {
  let n = 0;
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-chunk' && r.field('is_last_chunk') === 'true' && ++n === 1) return 'network-error';
    if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: CHUNK_SIZE + 1, complete: true, photo_id: 'p77' });
    return happy(r);
  });
  engine.addFiles([fakeFile(CHUNK_SIZE + 1, 'v.mp4', 'video/mp4')]);
  await clock.advance(2000);
  assert.equal(server.uploads().length, 2);
  assert.equal(engine.items[0].photoId, 'p77');
  await clock.advance(2000);
  assert.equal(engine.items[0].status, 'complete');
});

test('polling: first after 1 s, then every 1.5 s; processing moves uploaded to processing', async () => {
  let polls = 0;
  const { engine, server, clock } = setup((r) => {
    if (r.path.endsWith('/status')) return json(200, { success: true, status: ++polls < 4 ? 'processing' : 'complete', duplicate_type: null });
    return happy(r);
  });
  engine.addFiles([fakeFile(10, 'a.jpg')]);
  await clock.advance(999);
  assert.equal(engine.items[0].status, 'uploaded');
  await clock.advance(1);
  assert.equal(engine.items[0].status, 'processing');
  await clock.advance(60_000);
  const times = server.requests.filter((r) => r.path === '/api/photos/p1/status').map((r) => r.at);
  assert.deepEqual(times, [1000, 2500, 4000, 5500]);
  assert.equal(engine.items[0].status, 'complete');
});

test('polling gives up after 120 tries and marks the item complete', async () => {
  const { engine, server, clock } = setup((r) => (r.path.endsWith('/status') ? json(200, { success: true, status: 'processing' }) : happy(r)));
  engine.addFiles([fakeFile(10, 'a.jpg')]);
  await clock.advance(1000 + 118 * 1500);
  assert.equal(engine.items[0].status, 'processing');
  await clock.advance(1500);
  assert.equal(engine.items[0].status, 'complete');
  await clock.advance(60_000);
  assert.equal(server.requests.filter((r) => r.path.endsWith('/status')).length, 120);
});

test('a polled duplicate ends the item as duplicate', async () => {
  const { engine, clock } = setup((r) => (r.path.endsWith('/status') ? json(200, { success: true, status: 'duplicate', duplicate_type: 'exact' }) : happy(r)));
  engine.addFiles([fakeFile(10, 'a.jpg')]);
  await clock.advance(1000);
  assert.equal(engine.items[0].status, 'duplicate');
  assert.equal(engine.items[0].duplicateType, 'exact');
});

test('box: idle -> uploading -> success -> idle after 3 s; drops only while idle', async () => {
  const { engine, clock } = setup((r: SeenRequest) => happy(r));
  assert.equal(engine.box, 'idle');
  assert.equal(engine.addFiles([fakeFile(10, 'a.jpg')]), true);
  assert.equal(engine.box, 'uploading');
  assert.equal(engine.addFiles([fakeFile(10, 'b.jpg')]), false, 'refused while uploading');
  await clock.advance(999);
  assert.equal(engine.box, 'uploading', 'still processing');
  await clock.advance(1);
  assert.equal(engine.items[0].status, 'complete');
  assert.equal(engine.box, 'success');
  assert.equal(engine.addFiles([fakeFile(10, 'b.jpg')]), false, 'refused during the success banner');
  await clock.advance(2999);
  assert.equal(engine.box, 'success');
  await clock.advance(1);
  assert.equal(engine.box, 'idle');
  assert.equal(engine.addFiles([fakeFile(10, 'b.jpg')]), true);
  assert.equal(engine.items.length, 2);
});

test('Clear Completed keeps only uploading, pending and retrying items', async () => {
  const hold: (() => void)[] = [];
  const { engine, clock } = setup((r) => {
    if (r.path === '/api/upload') {
      const name = (r.fields[1][1] as { name: string }).name;
      if (name === 'dup.jpg') return json(200, { success: true, photo_id: 'x', duplicate: true, duplicate_type: 'exact' });
      if (name === 'bad.jpg') return json(500, { success: false, error: 'no' });
      if (name === 'flaky.jpg') return 'network-error';
      if (name.startsWith('slow')) return new Promise((res) => hold.push(() => res(happy(r) as never)));
    }
    return happy(r);
  });
  engine.addFiles(['ok.jpg', 'dup.jpg', 'bad.jpg', 'flaky.jpg', 'slow.jpg', 'slow2.jpg', 'queued.jpg'].map((n) => fakeFile(10, n)));
  await clock.advance(1000);
  const byName = () => Object.fromEntries(engine.items.map((i) => [i.file.name, i.status]));
  assert.equal(byName()['ok.jpg'], 'complete');
  assert.equal(byName()['flaky.jpg'], 'retrying');
  assert.equal(byName()['dup.jpg'], 'duplicate');
  assert.equal(byName()['bad.jpg'], 'error');
  engine.clearCompleted();
  assert.deepEqual(byName(), { 'flaky.jpg': 'retrying', 'slow.jpg': 'uploading', 'slow2.jpg': 'uploading', 'queued.jpg': 'pending' });
  hold.forEach((f) => f());
});

test('Retry on a plain errored item restarts it', async () => {
  let fail = true;
  const { engine, server, clock } = setup((r) => (r.path === '/api/upload' && fail ? json(500, { success: false, error: 'disk full' }) : happy(r)));
  engine.addFiles([fakeFile(10, 'a.jpg')]);
  await clock.advance(10);
  assert.equal(engine.items[0].status, 'error');
  fail = false;
  engine.retry(engine.items[0].id);
  await clock.advance(1000);
  assert.equal(server.uploads().length, 2);
  assert.equal(engine.items[0].status, 'complete');
});
