import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { UploadEngine } from '../../client/uploads/engine.js';
import { setUploadTable } from '../../client/uploads/table.js';
import { fakeFile, FakeServer, FakeTimers, happy, json, type SeenRequest, type Reply } from './upload-engine-fakes.js';

function engineWithChallenge(picked: () => string | null, handler: (r: SeenRequest) => Reply = happy) {
  const clock = new FakeTimers();
  const server = new FakeServer(clock, handler);
  const notices: unknown[] = [];
  let n = 0;
  const engine = new UploadEngine({ transport: server.transport, timers: clock, randomId: () => `c${++n}`, sessionId: 's1', notify: (x) => notices.push(x), challengeId: picked });
  return { clock, server, engine, notices };
}

test('the challenge picked when files are added goes with the single upload and with every chunk, before the file part', async () => {
  const { clock, server, engine } = engineWithChallenge(() => 'oldest');
  engine.addFiles([fakeFile(1000, 'a.jpg'), fakeFile(CHUNK_SIZE + 10, 'big.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  const ups = server.uploads();
  assert.equal(ups.length, 3);
  for (const r of ups) {
    assert.equal(r.field('challenge_id'), 'oldest', r.path);
    const keys = r.fields.map(([k]) => k);
    assert.ok(keys.indexOf('challenge_id') < keys.indexOf('file'), 'fields first, so chunks still stream straight into place');
  }
  assert.deepEqual(engine.items.map((i) => i.status), ['complete', 'complete']);
});

test('the pick is read when files are added: files added before a change keep theirs; none sends no field', async () => {
  let picked: string | null = 'dance';
  const { clock, server, engine } = engineWithChallenge(() => picked);
  engine.addFiles([fakeFile(1000, 'first.jpg')]);
  picked = null; // changed while the first file is on its way
  await clock.advance(10_000);
  assert.equal(server.uploads()[0].field('challenge_id'), 'dance');
  engine.clearCompleted();
  await clock.advance(5000);
  engine.addFiles([fakeFile(1000, 'second.jpg')]);
  await clock.advance(10_000);
  assert.equal(server.uploads().at(-1)!.field('challenge_id'), undefined);
});

test('a resumed chunked upload names its challenge when asking the offset (the server may store it from that call)', async () => {
  let failOnce = true;
  const { clock, server, engine } = engineWithChallenge(
    () => 'oldest',
    (r) => {
      if (r.path === '/api/upload-chunk' && failOnce) {
        failOnce = false;
        return 'network-error';
      }
      return happy(r);
    },
  );
  engine.addFiles([fakeFile(CHUNK_SIZE * 2 + 5, 'long.mp4', 'video/mp4')]);
  await clock.advance(60_000);
  const offset = server.requests.find((r) => r.path === '/api/upload-chunk/offset');
  assert.ok(offset, 'the retry asked the server where to go on');
  assert.equal(offset.query.get('challenge_id'), 'oldest');
  assert.equal(engine.items[0].status, 'complete');
});

test('a challenge removed while the file was on its way: the file goes again at once without it, no error shown', async () => {
  const { clock, server, engine, notices } = engineWithChallenge(
    () => 'gone',
    (r) => {
      if (r.field('challenge_id') === 'gone') return json(400, { success: false, code: 'invalid_input', field: 'challenge_id', error: 'challenge_id is not one of the photo challenges.' });
      return happy(r);
    },
  );
  engine.addFiles([fakeFile(1000, 'a.jpg'), fakeFile(CHUNK_SIZE + 10, 'big.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  assert.deepEqual(engine.items.map((i) => [i.status, i.challengeId, i.retryCount]), [
    ['complete', null, 0],
    ['complete', null, 0],
  ]);
  assert.ok(server.uploads().some((r) => r.field('challenge_id') === undefined && r.path === '/api/upload'));
  assert.ok(!notices.some((n) => (n as { variant?: string }).variant === 'destructive'), 'no error toast');
});

test('any other 400 is still an error for the file', async () => {
  const { clock, engine } = engineWithChallenge(
    () => 'oldest',
    (r) => (r.path === '/api/upload' ? json(400, { success: false, code: 'invalid_input', field: 'uploader_name', error: 'uploader_name is too long.' }) : happy(r)),
  );
  engine.addFiles([fakeFile(1000, 'a.jpg')]);
  await clock.advance(10_000);
  assert.equal(engine.items[0].status, 'error');
  assert.equal(engine.items[0].challengeId, 'oldest');
});

test('a resumed chunked upload from a table sign names its table when asking the offset (the server may store it from that call)', async () => {
  setUploadTable(7);
  try {
    let failOnce = true;
    const { clock, server, engine } = engineWithChallenge(
      () => null,
      (r) => {
        if (r.path === '/api/upload-chunk' && failOnce) {
          failOnce = false;
          return 'network-error';
        }
        return happy(r);
      },
    );
    engine.addFiles([fakeFile(CHUNK_SIZE * 2 + 5, 'table.mp4', 'video/mp4')]);
    await clock.advance(60_000);
    const offset = server.requests.find((r) => r.path === '/api/upload-chunk/offset');
    assert.ok(offset, 'the retry asked the server where to go on');
    assert.equal(offset.query.get('table'), '7');
    assert.ok(server.uploads().every((r) => r.field('table') === '7'));
    assert.equal(engine.items[0].status, 'complete');
  } finally {
    setUploadTable(null);
  }
});
