// The answers a server gives while it holds every byte of a file but could not store it yet:
// 507 with Retry-After (its disk filled), an offset that already says every byte arrived, and
// an offset call that stores the file and answers complete. The engine waits as told, asks, and
// ends with the photo; it never sends an empty chunk and never starts the file again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { UploadEngine } from '../../client/uploads/engine.js';
import { fakeFile, FakeServer, FakeTimers, happy, json, type Reply, type SeenRequest } from './upload-engine-fakes.js';

function engineFor(handler: (r: SeenRequest) => Reply) {
  const clock = new FakeTimers();
  const server = new FakeServer(clock, handler);
  let n = 0;
  const engine = new UploadEngine({ transport: server.transport, timers: clock, randomId: () => `d${++n}`, sessionId: 's1', uploaderName: () => 'Anna' });
  return { clock, server, engine };
}

const size = CHUNK_SIZE + 1000;

test('a last chunk answered 507 with Retry-After is tried again after that wait; the offset call that stores the file ends it', async () => {
  let stored = false;
  const { clock, server, engine } = engineFor((r) => {
    if (r.path === '/api/upload-chunk' && r.field('is_last_chunk') === 'true') return { ...json(507, { success: false, error: 'There is no room left for more photos. Please tell the couple.', code: 'storage_full' }), retryAfter: '30' };
    if (r.path === '/api/upload-chunk/offset') {
      stored = true;
      return json(200, { success: true, received_bytes: size, complete: true, photo_id: 'p9' });
    }
    return happy(r);
  });
  engine.addFiles([fakeFile(size, 'v.mp4', 'video/mp4')]);
  await clock.advance(1000);
  assert.equal(engine.items[0].status, 'retrying', 'a passing cause: not an error');
  await clock.advance(28_000);
  assert.equal(stored, false, 'the wait the server asked for is kept');
  await clock.advance(2000);
  assert.equal(stored, true);
  const offset = server.requests.find((r) => r.path === '/api/upload-chunk/offset')!;
  assert.equal(offset.query.get('uploader_name'), 'Anna', 'the file is stored as the guest who sent it');
  assert.equal(engine.items[0].photoId, 'p9');
  assert.equal(server.uploads().length, 2, 'nothing sent again');
  await clock.advance(5000);
  assert.equal(engine.items[0].status, 'complete');
});

test('an offset that says every byte arrived, without complete: the last byte goes again as the last chunk and its 201 ends the file', async () => {
  let lastChunks = 0;
  const { clock, server, engine } = engineFor((r) => {
    if (r.path === '/api/upload-chunk' && r.field('is_last_chunk') === 'true' && ++lastChunks === 1) return 'network-error';
    if (r.path === '/api/upload-chunk/offset') return json(200, { success: true, received_bytes: size });
    return happy(r);
  });
  engine.addFiles([fakeFile(size, 'v.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  const again = server.uploads().at(-1)!;
  assert.equal(again.field('chunk_start'), String(size - 1));
  assert.equal(again.field('chunk_end'), String(size));
  assert.equal(again.field('is_last_chunk'), 'true');
  assert.ok(server.uploads().every((r) => r.field('chunk_start') !== r.field('chunk_end')), 'never an empty chunk');
  assert.equal(engine.items[0].photoId, 'p1');
  assert.notEqual(engine.items[0].status, 'error');
});
