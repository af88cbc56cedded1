import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/server.js';

// An upload's answer closes its connection, so the phone's next chunk starts on a new one with a
// small receive window (uploads.routes.ts): on a connection the server has read fast, Linux grows
// the window to megabytes and a whole 5 MiB chunk would sit in the kernel, "sent", while other
// uploads are read first.

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

function post(agent: http.Agent, path: string, body: Buffer, type: string): Promise<{ status: number; connection: string | undefined; socket: unknown }> {
  const url = new URL(path, s.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { 'content-type': type, 'content-length': body.length } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socket: req.socket }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function form(fields: Record<string, string | number | boolean>, file: Buffer, name: string): { body: Buffer; type: string } {
  const boundary = '----connection-test';
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: image/jpeg\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), file, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

const jpeg = (seed: number) => sharp({ create: { width: 64, height: 48, channels: 3, background: { r: seed % 256, g: 90, b: 30 } } }).jpeg().toBuffer();

test('an upload\'s answer closes its connection, and the next upload of the same phone opens a new one; other answers keep theirs', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const one = form({ session_id: 'conn-test' }, await jpeg(1), 'one.jpg');
    const a = await post(agent, '/api/upload', one.body, one.type);
    assert.equal(a.status, 201);
    assert.equal(a.connection, 'close');
    // A chunk, the first of two: answered 200 with the progress, and its connection closed too.
    const file = await jpeg(2);
    const half = Math.ceil(file.length / 2);
    const fields = { upload_id: 'conn-test-chunks', session_id: 'conn-test', filename: 'two.jpg', total_size: file.length };
    const c1 = form({ ...fields, chunk_start: 0, chunk_end: half, is_last_chunk: false }, file.subarray(0, half), 'blob');
    const b = await post(agent, '/api/upload-chunk', c1.body, c1.type);
    assert.equal(b.status, 200);
    assert.equal(b.connection, 'close');
    assert.notEqual(b.socket, a.socket, 'the chunk went on a new connection');
    const c2 = form({ ...fields, chunk_start: half, chunk_end: file.length, is_last_chunk: true }, file.subarray(half), 'blob');
    const c = await post(agent, '/api/upload-chunk', c2.body, c2.type);
    assert.equal(c.status, 201);
    assert.equal(c.connection, 'close');
    assert.notEqual(c.socket, b.socket);
    // A read keeps its connection for the next request.
    const first = await new Promise<{ connection: string | undefined; socket: unknown }>((resolve, reject) => {
      const req = http.get(new URL('/api/stats', s.url), { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ connection: res.headers.connection, socket: req.socket }));
      });
      req.on('error', reject);
    });
    assert.equal(first.connection, 'keep-alive');
  } finally {
    agent.destroy();
  }
});
