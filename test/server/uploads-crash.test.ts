import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { chunkedUpload, sha256, uploadChunk } from '../helpers/uploads.js';

/** A chunk request whose body is sent in part and then stalls, as when a phone loses signal. */
function stalledChunk(base: string, data: Buffer, start: number, end: number, sentBytes: number) {
  const boundary = '----crash-test-boundary';
  const fields = { chunk_start: start, chunk_end: end, total_size: data.length, filename: 'crash.jpg', session_id: 'crash', is_last_chunk: end === data.length, upload_id: 'crash-1' };
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(Buffer.from(head));
      controller.enqueue(data.subarray(start, start + sentBytes));
      // ...and nothing more: the server is killed while it waits for the rest.
    },
  });
  return fetch(`${base}/api/upload-chunk`, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit).catch((e: Error) => e);
}

test('a server killed (SIGKILL) during a chunked upload resumes it after restart to a byte-identical file', async () => {
  assert.ok(fs.existsSync('dist/server/main.js'), 'build first: node scripts/build.mjs');
  const data = Buffer.concat([fs.readFileSync(sample('hdr_iphone_hdr_YES.jpg')), Buffer.from('crash-test')]);
  const chunk = 400_000;
  const server = await new ServerProcess().start();
  // Send the first two chunks of the real file, then a third that stalls half way, then crash.
  for (let start = 0; start < 2 * chunk; start += chunk) {
    const r = await uploadChunk(server.url, data.subarray(start, start + chunk), {
      chunk_start: start, chunk_end: start + chunk, total_size: data.length, filename: 'crash.jpg', session_id: 'crash', is_last_chunk: false, upload_id: 'crash-2',
    });
    assert.equal(r.status, 200);
  }
  const stalled = stalledChunk(server.url, data, 2 * chunk, 3 * chunk, 150_000);
  await new Promise((r) => setTimeout(r, 500));
  await server.stop('SIGKILL');
  assert.ok((await stalled) instanceof Error, 'the stalled request dies with the server');

  const again = new ServerProcess(server.dataDir, {}, server.port);
  await again.start();
  try {
    const off = (await (await fetch(`${again.url}/api/upload-chunk/offset?upload_id=crash-2`)).json()) as { received_bytes: number };
    assert.equal(off.received_bytes, 2 * chunk, 'the row claims exactly the chunks that were written');
    const last = await chunkedUpload(again.url, data, { chunkSize: chunk, filename: 'crash.jpg', sessionId: 'crash', uploadId: 'crash-2', from: off.received_bytes });
    assert.equal(last.status, 201, JSON.stringify(last.body));
    const originals = path.join(server.dataDir, 'media', 'originals');
    const file = fs.readdirSync(originals).find((f) => f.startsWith(last.body.photo_id));
    assert.ok(file);
    const storedBytes = fs.readFileSync(path.join(originals, file));
    assert.equal(sha256(storedBytes), sha256(data));
  } finally {
    await again.stop('SIGTERM');
  }
});
