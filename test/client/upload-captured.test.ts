import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { fakeFile, happy, setup } from './upload-engine-fakes.js';

// A photo or video taken in the page joins the queue at once and says when it was taken.
test('a capture joins the queue while other files are uploading, and sends captured_at before the file (single and chunked)', async () => {
  const { engine, server, clock } = setup(happy);
  engine.addFiles([fakeFile(1000, 'chosen.jpg')]);
  assert.equal(engine.box, 'uploading');
  assert.equal(engine.addFiles([fakeFile(1000, 'refused-while-busy.jpg')]), false, 'the drop zone still takes files only while idle');
  engine.addCaptured(fakeFile(2000, 'photo.jpg', 'image/jpeg'), '2026-06-07T18:30:05+02:00');
  engine.addCaptured(fakeFile(CHUNK_SIZE + 10, 'video.webm', 'video/webm'), '2026-06-07T18:31:00+02:00');
  assert.equal(engine.items.length, 3);
  await clock.advance(10_000);
  const single = server.uploads().find((r) => r.path === '/api/upload' && (r.fields.at(-1)![1] as { name: string }).name === 'photo.jpg')!;
  assert.deepEqual(single.fields.map(([k]) => k), ['session_id', 'captured_at', 'file']);
  assert.equal(single.field('captured_at'), '2026-06-07T18:30:05+02:00');
  const chunks = server.uploads().filter((r) => r.path === '/api/upload-chunk');
  assert.equal(chunks.length, 2);
  for (const c of chunks) assert.equal(c.field('captured_at'), '2026-06-07T18:31:00+02:00');
  const chosen = server.uploads().find((r) => (r.fields.at(-1)![1] as { name: string }).name === 'chosen.jpg')!;
  assert.equal(chosen.field('captured_at'), undefined, 'a chosen file says nothing of when it was taken');
  assert.ok(engine.items.every((i) => i.status === 'complete' || i.status === 'processing' || i.status === 'uploaded'), JSON.stringify(engine.items.map((i) => i.status)));
});
