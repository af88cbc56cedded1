// The page asks for its turn (GET /api/upload-turn) before each upload request and sends the
// request with ?turn= once it has one, so its bytes go when the server can take them; when the
// server gives no turn (an error, no such route) the request goes as it is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import type { TransportResponse } from '../../client/uploads/types.js';
import { fakeFile, flush, happy, json, setup, type SeenRequest } from './upload-engine-fakes.js';

test('each chunk waits for its turn, asks for its own size, and goes with the turn the server gave', async () => {
  const answers: ((r: TransportResponse) => void)[] = [];
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-turn') return new Promise<TransportResponse>((resolve) => answers.push(resolve));
    return happy(r);
  });
  const size = CHUNK_SIZE + 1000;
  engine.addFiles([fakeFile(size, 'clip.mp4', 'video/mp4')]);
  await clock.advance(1000);
  const asks = () => server.requests.filter((r) => r.path === '/api/upload-turn');
  assert.equal(asks().length, 1);
  assert.equal(asks()[0].query.get('bytes'), String(CHUNK_SIZE));
  assert.equal(server.uploads().length, 0, 'no byte of the file is sent before its turn');
  answers.shift()!(json(200, { success: true, turn: 'first/turn' }));
  await flush();
  assert.equal(server.uploads().length, 1);
  assert.equal(server.uploads()[0].url, '/api/upload-chunk?turn=first%2Fturn');
  assert.equal(asks().length, 2, 'the next chunk asks again');
  assert.equal(asks()[1].query.get('bytes'), '1000');
  assert.equal(server.uploads().length, 1);
  answers.shift()!(json(200, { success: true, turn: 'second' }));
  await clock.advance(5000);
  assert.deepEqual(server.uploads().map((r) => r.url), ['/api/upload-chunk?turn=first%2Fturn', '/api/upload-chunk?turn=second']);
  assert.equal(engine.items[0].status, 'complete');
});

test('"ask again" is asked again; a file of 5 MB or less waits for its turn too', async () => {
  let nulls = 2;
  const { engine, server, clock } = setup((r) => {
    if (r.path === '/api/upload-turn') return nulls-- > 0 ? json(200, { success: true, turn: null }) : json(200, { success: true, turn: 'x' });
    return happy(r);
  });
  engine.addFiles([fakeFile(1234, 'a.jpg')]);
  await clock.advance(5000);
  const seen = server.requests.filter((r: SeenRequest) => !r.path.endsWith('/status')).map((r) => r.url);
  assert.deepEqual(seen, ['/api/upload-turn?bytes=1234', '/api/upload-turn?bytes=1234', '/api/upload-turn?bytes=1234', '/api/upload?turn=x']);
  assert.equal(engine.items[0].status, 'complete');
});

for (const [what, reply] of [
  ['no such route (404)', json(404, { success: false, error: 'Not found' })],
  ['a busy server (503)', json(503, { success: false, error: 'Busy' })],
  ['a network error', 'network-error'],
] as const) {
  test(`a server that gives no turn (${what}): the request goes without one and the file is stored`, async () => {
    const { engine, server, clock } = setup((r) => (r.path === '/api/upload-turn' ? reply : happy(r)));
    engine.addFiles([fakeFile(CHUNK_SIZE + 1, 'v.mov', 'video/quicktime')]);
    await clock.advance(10_000);
    assert.deepEqual(server.uploads().map((r) => r.url), ['/api/upload-chunk', '/api/upload-chunk']);
    assert.equal(engine.items[0].status, 'complete');
  });
}
