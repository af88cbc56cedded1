// Server-wide caps: upload requests in progress and live event streams beyond the configured
// number are answered 503 with Retry-After; and a body that trickles in slower than 1 KiB/s over
// the idle window is ended like an idle one, its chunk keeping what arrived for the resume.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { chunkedUpload, sha256, tinyImage, uploadFile } from '../helpers/uploads.js';

let s: TestServer;
let slowSite: TestServer;
before(async () => {
  s = await startTestServer({ MAX_UPLOAD_REQUESTS: '2', MAX_EVENT_STREAMS: '3' });
  slowSite = await startTestServer({ BODY_IDLE_TIMEOUT_S: '2' });
});
after(async () => {
  await s.close();
  await slowSite.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A chunk request sent by hand: its fields and `first` bytes now, the rest when the caller says. */
function openChunk(data: Buffer, uploadId: string, first: number, site = s) {
  const boundary = `----caps${crypto.randomBytes(6).toString('hex')}`;
  const fields = { session_id: `caps-${uploadId}`, upload_id: uploadId, filename: `${uploadId}.jpg`, total_size: data.length, chunk_start: 0, chunk_end: data.length, is_last_chunk: true };
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${site.url}/api/upload-chunk`);
  const req = http.request({
    host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + data.length + tail.length },
  });
  const ended = new Promise<{ status?: number; closedAt: number }>((resolve) => {
    req.on('error', () => resolve({ closedAt: Date.now() }));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, closedAt: Date.now() }));
    });
  });
  req.write(head);
  req.write(data.subarray(0, first));
  let sent = first;
  return {
    ended,
    send(n: number) {
      if (req.destroyed) return;
      req.write(data.subarray(sent, sent + n));
      sent += n;
    },
    finish() {
      req.end(Buffer.concat([data.subarray(sent), tail]));
    },
    drop: () => req.destroy(),
  };
}

test('upload requests past MAX_UPLOAD_REQUESTS are 503 with Retry-After; a place freed takes the next', async () => {
  const data = fs.readFileSync(sample('Canon_40D.jpg'));
  const a = openChunk(data, 'cap-a', 1000);
  const b = openChunk(Buffer.concat([data, Buffer.from('another file')]), 'cap-b', 1000);
  await sleep(300); // both are in progress, their bodies not yet whole
  const third = await uploadFile(s.url, await tinyImage('jpeg', 7), 'third.jpg');
  assert.equal(third.status, 503, JSON.stringify(third.body));
  assert.equal(third.body.code, 'unavailable');
  assert.ok(Number(third.retryAfter) > 0, 'with Retry-After');
  a.finish();
  assert.equal((await a.ended).status, 201);
  const later = await uploadFile(s.url, await tinyImage('jpeg', 7), 'third.jpg');
  assert.equal(later.status, 201, 'a place came free');
  b.finish();
  assert.equal((await b.ended).status, 201);
});

test('event streams past MAX_EVENT_STREAMS are 503 with Retry-After; a closed one frees its place', async () => {
  const open = async () => {
    const ac = new AbortController();
    const res = await fetch(`${s.url}/api/events`, { signal: ac.signal });
    return { res, close: () => ac.abort() };
  };
  const streams = [await open(), await open(), await open()];
  for (const st of streams) assert.equal(st.res.status, 200);
  const refused = await open();
  assert.equal(refused.res.status, 503);
  assert.ok(Number(refused.res.headers.get('retry-after')) > 0, 'with Retry-After');
  assert.equal(((await refused.res.json()) as { code: string }).code, 'unavailable');
  streams[0].close();
  await sleep(200);
  const next = await open();
  assert.equal(next.res.status, 200, 'the closed stream gave its place back');
  for (const st of [...streams.slice(1), next]) st.close();
});

test('a body trickling in under 1 KiB/s is ended within the idle window, and the chunk keeps what arrived for the resume', async () => {
  const data = Buffer.concat([fs.readFileSync(sample('Nikon_D70.jpg')), crypto.randomBytes(200_000)]);
  const slow = openChunk(data, 'slow', 100_000, slowSite);
  const start = Date.now();
  // A few hundred bytes a second: never idle for the 2 s window, far under 1 KiB/s.
  const trickle = setInterval(() => slow.send(100), 250);
  const ended = await Promise.race([slow.ended, sleep(15_000).then(() => undefined)]);
  clearInterval(trickle);
  slow.drop();
  assert.ok(ended, 'the server ended the slow body');
  assert.ok(ended.closedAt - start < 10_000, `within a few windows (${ended.closedAt - start} ms)`);
  const off = (await (await fetch(`${slowSite.url}/api/upload-chunk/offset?upload_id=slow`)).json()) as { received_bytes: number };
  assert.ok(off.received_bytes >= 100_000, `what arrived is kept (${off.received_bytes} bytes)`);
  const rest = await chunkedUpload(slowSite.url, data, { chunkSize: data.length, filename: 'slow.jpg', sessionId: 'caps-slow', uploadId: 'slow', from: off.received_bytes });
  assert.equal(rest.status, 201, JSON.stringify(rest.body));
  const photo = slowSite.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(rest.body.photo_id) as { stored_path: string };
  assert.equal(sha256(fs.readFileSync(path.join(slowSite.dataDir, photo.stored_path))), sha256(data));
});
