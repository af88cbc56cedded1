import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHUNK_SIZE } from '../../client/uploads/constants.js';
import { fileLabel, formatSize, statusText } from '../../client/uploads/format.js';
import { fakeFile, happy, json, setup, type SeenRequest } from './upload-engine-fakes.js';

test('the single-request threshold is exactly 5,242,880 bytes', async () => {
  assert.equal(CHUNK_SIZE, 5_242_880);
  const { engine, server, clock } = setup(happy);
  engine.addFiles([fakeFile(5_242_880, 'at-limit.jpg')]);
  await clock.advance(10_000);
  assert.deepEqual(server.uploads().map((r) => r.path), ['/api/upload']);
  const { engine: e2, server: s2, clock: c2 } = setup(happy);
  e2.addFiles([fakeFile(5_242_881, 'one-byte-over.jpg')]);
  await c2.advance(10_000);
  assert.deepEqual(s2.uploads().map((r) => r.path), ['/api/upload-chunk', '/api/upload-chunk']);
  assert.deepEqual(s2.uploads().map((r) => (r.fields.at(-1)![1] as { size: number }).size), [5_242_880, 1]);
});

test('a single upload sends session_id, then the file', async () => {
  const { engine, server, clock } = setup(happy);
  engine.addFiles([fakeFile(1000, 'a.jpg'), fakeFile(2000, 'b.jpg')]);
  await clock.advance(5000);
  const ups = server.uploads();
  assert.equal(ups.length, 2);
  for (const r of ups) {
    assert.deepEqual(r.fields.map(([k]) => k), ['session_id', 'file']);
    assert.equal(r.field('session_id'), 'session-1');
  }
  assert.deepEqual(ups.map((r) => r.fields[1][1]), [{ name: 'a.jpg', size: 1000 }, { name: 'b.jpg', size: 2000 }]);
});

test('chunks cover the file in 5 MiB pieces, chunk_end exclusive, fields before the file', async () => {
  const size = 2 * CHUNK_SIZE + 123_456;
  const { engine, server, clock } = setup(happy);
  engine.addFiles([fakeFile(size, 'big.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  const chunks = server.uploads();
  assert.equal(chunks.length, 3);
  const uploadId = chunks[0].field('upload_id');
  assert.ok(uploadId);
  const expected = [
    [0, CHUNK_SIZE, 'false'],
    [CHUNK_SIZE, 2 * CHUNK_SIZE, 'false'],
    [2 * CHUNK_SIZE, size, 'true'],
  ];
  chunks.forEach((r, i) => {
    assert.deepEqual(r.fields.map(([k]) => k), ['session_id', 'upload_id', 'filename', 'total_size', 'chunk_start', 'chunk_end', 'is_last_chunk', 'file']);
    const [start, end, last] = expected[i];
    assert.equal(r.field('chunk_start'), String(start));
    assert.equal(r.field('chunk_end'), String(end));
    assert.equal(r.field('is_last_chunk'), last);
    assert.equal(r.field('total_size'), String(size));
    assert.equal(r.field('filename'), 'big.mp4');
    assert.equal(r.field('session_id'), 'session-1');
    assert.equal(r.field('upload_id'), uploadId);
    assert.equal((r.fields[7][1] as { size: number }).size, (end as number) - (start as number));
  });
  assert.equal(engine.items[0].status, 'complete');
  assert.equal(engine.items[0].uploadedBytes, size);
  assert.equal(engine.items[0].progress, 100);
});

test('two files with the same name get different upload ids', async () => {
  const { engine, server, clock } = setup(happy);
  engine.addFiles([fakeFile(CHUNK_SIZE + 1, 'image.jpg'), fakeFile(CHUNK_SIZE + 2, 'image.jpg')]);
  await clock.advance(10_000);
  const ids = new Set(server.uploads().map((r) => r.field('upload_id')));
  assert.equal(ids.size, 2);
});

test('never more than 3 uploads at once, and every file finishes', async () => {
  const waiting: (() => void)[] = [];
  const { engine, server, clock } = setup((r) => {
    if (r.method === 'POST') return new Promise((res) => waiting.push(() => res(happy(r) as never)));
    return happy(r);
  });
  engine.addFiles(Array.from({ length: 8 }, (_, i) => fakeFile(100 + i, `f${i}.jpg`)));
  await clock.advance(10);
  assert.equal(server.inFlight, 3);
  assert.equal(engine.items.filter((i) => i.status === 'uploading').length, 3);
  assert.equal(engine.items.filter((i) => i.status === 'pending').length, 5);
  while (waiting.length) {
    waiting.shift()!();
    await clock.advance(10);
    assert.ok(server.inFlight <= 3);
  }
  await clock.advance(5000);
  assert.equal(server.maxInFlight, 3);
  assert.equal(server.uploads().length, 8);
  assert.ok(engine.items.every((i) => i.status === 'complete'));
});

test('progress events feed progress and uploadedBytes', async () => {
  let progress: ((l: number, t: number) => void) | undefined;
  let finish: (() => void) | undefined;
  const { engine, clock } = setup(happy);
  (engine as any).transport = (req: any) => {
    if (req.method !== 'POST') return Promise.resolve(happy({ path: new URL(req.url, 'http://x').pathname } as SeenRequest));
    progress = req.onUploadProgress;
    return new Promise((res) => (finish = () => res(json(201, { success: true, photo_id: 'p9', duplicate: false }))));
  };
  engine.addFiles([fakeFile(4000, 'p.jpg')]);
  await clock.advance(1);
  progress!(2200, 4400); // half of the body, multipart overhead included
  assert.equal(engine.items[0].uploadedBytes, 2000);
  assert.equal(engine.items[0].progress, 50);
  assert.equal(statusText(engine.items[0]), 'Uploading... 50%');
  finish!();
  await clock.advance(1);
  assert.equal(engine.items[0].progress, 100);
  assert.equal(engine.items[0].status, 'uploaded');
});

test('201 is success: toast, then status polling', async () => {
  const { engine, notices, clock } = setup(happy);
  engine.addFiles([fakeFile(10, 'kiss.jpg')]);
  await clock.advance(1);
  assert.equal(engine.items[0].status, 'uploaded');
  assert.equal(engine.items[0].photoId, 'p1');
  assert.deepEqual(notices, [{ title: 'Upload successful!', description: 'kiss.jpg has been uploaded', variant: 'success' }]);
});

test('200 with duplicate true is skipped with a toast and no polling', async () => {
  const { engine, notices, server, clock } = setup((r) =>
    r.path === '/api/upload' ? json(200, { success: true, photo_id: 'old', duplicate: true, duplicate_type: 'exact' }) : happy(r),
  );
  engine.addFiles([fakeFile(10, 'again.jpg')]);
  await clock.advance(100);
  const item = engine.items[0];
  assert.equal(item.status, 'duplicate');
  assert.equal(item.isDuplicate, true);
  assert.equal(item.duplicateType, 'exact');
  assert.deepEqual(notices, [{ title: 'Duplicate photo detected', description: 'again.jpg was already uploaded and was skipped' }]);
  assert.equal(server.requests.filter((r) => r.path.endsWith('/status')).length, 0);
  assert.equal(engine.box, 'success');
});

test('a duplicate answer to the last chunk is a duplicate too', async () => {
  const { engine, clock } = setup((r) =>
    r.path === '/api/upload-chunk' && r.field('is_last_chunk') === 'true' ? json(200, { success: true, photo_id: 'old', duplicate: true, duplicate_type: 'exact' }) : happy(r),
  );
  engine.addFiles([fakeFile(CHUNK_SIZE * 2, 'v.mp4', 'video/mp4')]);
  await clock.advance(10_000);
  assert.equal(engine.items[0].status, 'duplicate');
});

for (const [name, body, message] of [
  ['any other 200 body', JSON.stringify({ success: true, photo_id: 'x', duplicate: false }), 'Unexpected 200 response'],
  ['a 200 that is not JSON', '<html>proxy page</html>', 'Failed to parse 200 response'],
  ['a 500', JSON.stringify({ success: false, error: 'Something broke', code: 'internal' }), 'Upload failed with status 500: Something broke'],
  ['a 415', JSON.stringify({ success: false, error: 'This file type is not accepted', code: 'unsupported_type' }), 'Upload failed with status 415: This file type is not accepted'],
  ['a 403 with the uploads-off sentence but another code', JSON.stringify({ success: false, error: 'Uploads are not enabled yet', code: 'forbidden' }), 'Upload failed with status 403: Uploads are not enabled yet'],
  ['a 400 with no body', '', 'Upload failed with status 400: Unknown error'],
] as const) {
  test(`${name} is an error with a destructive "Upload failed" toast and no retry`, async () => {
    const status = Number(name.match(/\d{3}/)?.[0] ?? 200);
    const { engine, notices, server, clock } = setup((r) => (r.path === '/api/upload' ? { status, statusText: '', body } : happy(r)));
    engine.addFiles([fakeFile(10, 'x.jpg')]);
    await clock.advance(60_000);
    assert.equal(server.uploads().length, 1);
    const item = engine.items[0];
    assert.equal(item.status, 'error');
    assert.equal(item.error, message);
    assert.equal(item.isResumable, false);
    assert.equal(statusText(item), message);
    assert.deepEqual(notices, [{ title: 'Upload failed', description: message, variant: 'destructive' }]);
    assert.equal(engine.box, 'idle', 'nothing succeeded, so the box takes drops again');
  });
}

for (const error of ['Uploads are not enabled yet', 'Les envois ne sont pas encore ouverts']) {
  test(`uploads switched off on the server (code uploads_disabled, "${error}"): SPEC toast, no "Upload failed"`, async () => {
    const { engine, notices, clock } = setup((r) => (r.path === '/api/upload' ? json(403, { success: false, error, code: 'uploads_disabled' }) : happy(r)));
    engine.addFiles([fakeFile(10, 'x.jpg')]);
    await clock.advance(1000);
    assert.deepEqual(notices, [{ title: 'Uploads not available', description: 'Photo uploads will be available on the wedding day!', variant: 'destructive' }]);
    assert.equal(engine.items[0].status, 'error');
  });
}

test('size formatting and labels', () => {
  assert.equal(formatSize(512), '512 B');
  assert.equal(formatSize(2048), '2.0 KB');
  assert.equal(formatSize(5_242_880), '5.0 MB');
  assert.equal(formatSize(3 * 1024 ** 3), '3.0 GB');
  assert.equal(formatSize(150 * 1024 ** 2), '150 MB');
  assert.equal(fileLabel('video/quicktime'), 'Video');
  assert.equal(fileLabel('image/heic'), 'Photo');
  assert.equal(fileLabel(''), 'File');
});
