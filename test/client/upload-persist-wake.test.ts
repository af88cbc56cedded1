import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { statusText } from '../../client/uploads/format.js';
import { type KeepAliveEnv, keepUploadsAlive } from '../../client/uploads/keep-alive.js';
import { retryAfterMs } from '../../client/uploads/requests.js';
import { fakeFile, flush, happy, json, setup } from './upload-engine-fakes.js';

const busy = (status: number, retryAfter: string | null, code: string) => ({
  status,
  statusText: '',
  body: JSON.stringify({ success: false, error: 'Too many uploads at once, please wait', code }),
  retryAfter,
});

for (const status of [429, 503]) {
  test(`${status} with Retry-After waits that long, then retries (a transient failure), without a toast`, async () => {
    let calls = 0;
    const { engine, server, notices, clock } = setup((r) => (r.path === '/api/upload' && ++calls === 1 ? busy(status, '7', status === 429 ? 'rate_limited' : 'unavailable') : happy(r)));
    engine.addFiles([fakeFile(100, 'a.jpg')]);
    await clock.advance(1);
    assert.equal(engine.items[0].status, 'retrying');
    assert.equal(statusText(engine.items[0]), 'Reconnecting... (1/5)');
    // The signal coming back does not cut short a wait the server asked for.
    engine.wake();
    await clock.advance(6990);
    assert.equal(server.uploads().length, 1, 'no retry before Retry-After');
    await clock.advance(10);
    assert.deepEqual(server.uploads().map((r) => r.at), [0, 7000]);
    assert.equal(engine.items[0].status, 'uploaded');
    assert.deepEqual(notices.map((n) => n.title), ['Upload successful!']);
  });
}

test('Retry-After as an HTTP date and bounds', () => {
  const now = Date.parse('2026-06-07T12:00:00Z');
  assert.equal(retryAfterMs('Sun, 07 Jun 2026 12:00:30 GMT', now), 30_000);
  assert.equal(retryAfterMs('0', now), 0);
  assert.equal(retryAfterMs('99999', now), 600_000);
  assert.equal(retryAfterMs('soon', now), undefined);
  assert.equal(retryAfterMs(null, now), undefined);
});

test('429 on a chunk with Retry-After resumes that chunk after the wait', async () => {
  let refused = false;
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-chunk' && r.field('chunk_start') === String(CHUNK_SIZE) && !refused) {
      refused = true;
      return busy(429, '3', 'rate_limited');
    }
    if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: CHUNK_SIZE });
    return happy(r);
  });
  engine.addFiles([fakeFile(CHUNK_SIZE + 50, 'v.mp4', 'video/mp4')]);
  await clock.advance(1);
  assert.equal(engine.items[0].status, 'retrying');
  await clock.advance(3000);
  assert.equal(engine.items[0].status, 'uploaded');
  await clock.advance(1000);
  assert.equal(engine.items[0].status, 'complete');
  const starts = server.uploads().map((r) => Number(r.field('chunk_start')));
  assert.deepEqual(starts, [0, CHUNK_SIZE, CHUNK_SIZE]);
});

test('507 storage full: an error with the server sentence, a destructive toast, never retried', async () => {
  const sentence = 'There is no room left for more photos. Please tell the couple.';
  const { engine, server, notices, clock } = setup((r) =>
    r.method === 'POST' ? { status: 507, statusText: '', body: JSON.stringify({ success: false, error: sentence, code: 'storage_full' }), retryAfter: null } : happy(r),
  );
  engine.addFiles([fakeFile(100, 'a.jpg')]);
  await clock.advance(60_000);
  assert.equal(server.uploads().length, 1);
  assert.equal(engine.items[0].status, 'error');
  assert.ok(engine.items[0].error!.includes(sentence), engine.items[0].error!);
  assert.deepEqual(notices, [{ title: 'Upload failed', description: engine.items[0].error, variant: 'destructive' }]);
  engine.wake();
  await clock.advance(60_000);
  assert.equal(server.uploads().length, 1, 'waking does not retry a refusal');
});

test('wake() retries at once instead of waiting out the backoff, and resumes files out of retries', async () => {
  let offline = true;
  const { engine, server, clock } = setup((r) => (r.method === 'POST' && offline ? 'network-error' : happy(r)));
  engine.addFiles([fakeFile(100, 'a.jpg')]);
  await clock.advance(2500); // attempt at 0, retry at 2000, now waiting 3000 ms
  assert.deepEqual(server.uploads().map((r) => r.at), [0, 2000]);
  offline = false;
  engine.wake();
  await flush();
  assert.deepEqual(server.uploads().map((r) => r.at), [0, 2000, 2500]);
  assert.equal(engine.items[0].status, 'uploaded');

  const s = setup((r) => (r.method === 'POST' && offline ? 'network-error' : happy(r)));
  offline = true;
  s.engine.addFiles([fakeFile(CHUNK_SIZE + 10, 'v.mp4', 'video/mp4')]);
  await s.clock.advance(60_000);
  assert.equal(s.engine.items[0].status, 'error');
  assert.equal(s.engine.items[0].isResumable, true);
  offline = false;
  s.engine.wake();
  await flush();
  assert.equal(s.engine.items[0].status, 'uploaded');
});

/** A browser with a wake lock whose grants and releases are recorded. */
function fakeEnv() {
  const handlers = new Map<string, (e: Event) => void>();
  const log: string[] = [];
  const env: KeepAliveEnv & { visibleNow: boolean; onlineNow: boolean } = {
    visibleNow: true,
    onlineNow: true,
    wakeLock: {
      request: async () => {
        log.push('take');
        return { release: async () => void log.push('release') };
      },
    },
    visible: () => env.visibleNow,
    online: () => env.onlineNow,
    listen: (target, type, fn) => {
      handlers.set(`${target}:${type}`, fn);
      return () => handlers.delete(`${target}:${type}`);
    },
  };
  const fire = (key: string) => {
    const e = { defaultPrevented: false, returnValue: undefined as unknown, preventDefault() { this.defaultPrevented = true; } };
    handlers.get(key)?.(e as unknown as Event);
    return e;
  };
  return { env, log, fire, handlers };
}

test('the screen wake lock is held while files upload, released when idle or hidden, taken again when visible', async () => {
  let hold = true;
  const { engine, clock } = setup((r) => (r.method === 'POST' && hold ? 'network-error' : happy(r)));
  const { env, log, fire, handlers } = fakeEnv();
  const stop = keepUploadsAlive(engine, env);
  await flush();
  assert.deepEqual(log, [], 'no lock while nothing uploads');
  assert.equal(fire('window:beforeunload').defaultPrevented, false, 'no prompt while idle');

  engine.addFiles([fakeFile(100, 'a.jpg')]);
  await flush();
  assert.deepEqual(log, ['take']);
  const prompt = fire('window:beforeunload');
  assert.equal(prompt.defaultPrevented, true, 'closing the page asks first');

  env.visibleNow = false;
  fire('document:visibilitychange');
  await flush();
  assert.deepEqual(log, ['take', 'release']);
  env.visibleNow = true;
  hold = false;
  fire('document:visibilitychange'); // also retries at once
  await flush();
  assert.equal(engine.items[0].status, 'uploaded');
  assert.deepEqual(log, ['take', 'release', 'take', 'release'], 'taken again, then released when the file is on the server');
  assert.equal(fire('window:beforeunload').defaultPrevented, false);
  await clock.advance(2000);

  stop();
  assert.equal(handlers.size, 0, 'every listener removed');
});

test('the online event retries at once', async () => {
  let offline = true;
  const { engine, server, clock } = setup((r) => (r.method === 'POST' && offline ? 'network-error' : happy(r)));
  const { env, fire } = fakeEnv();
  keepUploadsAlive(engine, env);
  engine.addFiles([fakeFile(100, 'a.jpg')]);
  await clock.advance(100);
  offline = false;
  fire('window:online');
  await flush();
  assert.deepEqual(server.uploads().map((r) => r.at), [0, 100]);
  assert.equal(engine.items[0].status, 'uploaded');
});
