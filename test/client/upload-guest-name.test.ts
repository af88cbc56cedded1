import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { UploadEngine } from '../../client/uploads/engine.js';
import { fakeFile, FakeServer, FakeTimers, happy } from './upload-engine-fakes.js';

function engineWithName(name: () => string) {
  const clock = new FakeTimers();
  const server = new FakeServer(clock, happy);
  let n = 0;
  const engine = new UploadEngine({ transport: server.transport, timers: clock, randomId: () => `g${++n}`, sessionId: 's1', uploaderName: name });
  return { clock, server, engine };
}

test('the guest name goes with every single upload and with every chunk, before the file part', async () => {
  const { clock, server, engine } = engineWithName(() => '  Anna  ');
  engine.addFiles([fakeFile(1000, 'a.jpg'), fakeFile(CHUNK_SIZE + 10, 'big.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  const ups = server.uploads();
  assert.equal(ups.length, 3);
  for (const r of ups) {
    assert.equal(r.field('uploader_name'), 'Anna', r.path);
    const keys = r.fields.map(([k]) => k);
    assert.ok(keys.indexOf('uploader_name') < keys.indexOf('file'), 'fields first, so chunks still stream straight into place');
  }
});

test('the name is read as each request goes out; an empty name sends no field (anonymous)', async () => {
  let name = '';
  const { clock, server, engine } = engineWithName(() => name);
  engine.addFiles([fakeFile(1000, 'anon.jpg')]);
  await clock.advance(10_000);
  assert.equal(server.uploads()[0].field('uploader_name'), undefined);
  name = 'Ben';
  engine.clearCompleted();
  await clock.advance(5000);
  engine.addFiles([fakeFile(1000, 'named.jpg')]);
  await clock.advance(10_000);
  assert.equal(server.uploads().at(-1)!.field('uploader_name'), 'Ben');
});
