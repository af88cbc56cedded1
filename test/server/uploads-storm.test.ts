// A storm of dropped connections: many phones upload at once (so their pieces wait in the pacer),
// some in chunks, some whole files in one request, and most requests are cut off part way through
// their bodies, at random points; chunked ones resume from the offset the server reports, whole
// ones are sent again. A piece still waiting when its connection dropped
// must never reach the file (or the running hash) after the upload moved on, nor another upload's
// file: every stored original's SHA-256 equals its row's and the phone's file. The pacer's queue is
// kept as deep as a hundred more phones make it (their pieces stand in line before these), so a
// piece waits there for many turns, as it does on the day.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { paceUploadBytes, TURN_BUDGET_BYTES } from '../../server/uploads/pacer.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { sha256 } from '../helpers/uploads.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const CHUNK = 1024 * 1024;
const UPLOADS = 24;

type Sent = { status: number; body: any } | 'cut';

/** A chunk request whose connection is cut after `cutAt` bytes of the chunk (undefined: sent whole). */
function chunkRequest(data: Buffer, start: number, end: number, uploadId: string, cutAt?: number): Promise<Sent> {
  const fields = { session_id: `phone-${uploadId}`, upload_id: uploadId, filename: `${uploadId}.jpg`, total_size: data.length, chunk_start: start, chunk_end: end, is_last_chunk: end === data.length };
  return formRequest('/api/upload-chunk', fields, data.subarray(start, end), cutAt);
}

/** A multipart POST of `fields` then the file part `bytes`, its connection cut after `cutAt` bytes of them. */
function formRequest(route: string, fields: Record<string, unknown>, bytes: Buffer, cutAt?: number): Promise<Sent> {
  const boundary = `----storm${crypto.randomBytes(6).toString('hex')}`;
  let head = '';
  for (const [k, v] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const url = new URL(s.url + route);
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + bytes.length + tail.length },
    });
    req.on('error', () => resolve('cut'));
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => (text += d)).on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      res.on('error', () => resolve('cut'));
    });
    req.write(head);
    if (cutAt === undefined) {
      req.end(Buffer.concat([bytes, Buffer.from(tail)]));
      return;
    }
    // Sent in pieces, as a phone's connection does, and dropped mid-way.
    let sentBytes = 0;
    const more = () => {
      if (sentBytes >= cutAt) {
        req.destroy();
        resolve('cut');
        return;
      }
      const piece = bytes.subarray(sentBytes, Math.min(cutAt, sentBytes + 64 * 1024));
      sentBytes += piece.length;
      if (req.write(piece)) setImmediate(more);
      else req.once('drain', more);
    };
    more();
  });
}

async function offsetOf(uploadId: string): Promise<number> {
  const r = (await (await fetch(`${s.url}/api/upload-chunk/offset?upload_id=${uploadId}`)).json()) as { received_bytes: number };
  return r.received_bytes;
}

/** One phone sending a whole file per request until it is stored, two of three requests cut off at a random point. */
async function wholeFilePhone(data: Buffer, name: string, rng: () => number): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const cut = rng() < 0.66 ? Math.floor(rng() * data.length) : undefined;
    const r = await formRequest('/api/upload', { session_id: `phone-${name}` }, data, cut);
    if (r !== 'cut' && (r.status === 201 || r.status === 200)) return r.body.photo_id;
    if (r !== 'cut') throw new Error(`${name}: ${r.status} ${JSON.stringify(r.body)}`);
  }
  throw new Error(`${name} never finished`);
}

/** One phone: chunks until its file is stored, two of three requests cut off at a random point. */
async function phone(data: Buffer, uploadId: string, rng: () => number): Promise<string> {
  let from = 0;
  for (let attempt = 0; attempt < 200; attempt++) {
    const end = Math.min(from + CHUNK, data.length);
    const cut = rng() < 0.66 ? Math.floor(rng() * (end - from)) : undefined;
    const r = await chunkRequest(data, from, end, uploadId, cut);
    if (r !== 'cut' && r.status === 201) return r.body.photo_id;
    if (r !== 'cut' && r.status !== 200 && r.status !== 409) throw new Error(`${uploadId}: ${r.status} ${JSON.stringify(r.body)}`);
    from = await offsetOf(uploadId);
  }
  throw new Error(`${uploadId} never finished`);
}

/** Other phones' pieces, about `turns` turns of the pacer's budget, kept in line ahead of whatever comes next until stop(). */
function otherPhones(turns: number): { stop(): void } {
  let queued = 0;
  let running = true;
  const piece = TURN_BUDGET_BYTES / 4;
  const topUp = () => {
    if (!running) return;
    for (; queued < turns * 4; queued++) paceUploadBytes(piece, () => queued--);
    setTimeout(topUp, 1);
  };
  topUp();
  return { stop: () => (running = false) };
}

test('after a storm of dropped connections every stored file matches its row and the phone\'s bytes', async () => {
  const base = fs.readFileSync(sample('mobile_jolla.jpg'));
  let seed = 42;
  const rng = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const files = Array.from({ length: UPLOADS }, (_, i) => ({ id: `storm-${i}`, data: Buffer.concat([base, crypto.randomBytes(2 * CHUNK + Math.floor(rng() * CHUNK))]) }));
  const others = otherPhones(64);
  let photoIds: string[];
  try {
    // Half the phones send in chunks, half send each file whole.
    photoIds = await Promise.all(files.map((f, i) => (i % 2 ? wholeFilePhone(f.data, f.id, rng) : phone(f.data, f.id, rng))));
  } finally {
    others.stop();
  }
  for (const [i, f] of files.entries()) {
    const row = s.ctx.sqlite.prepare('SELECT sha256, stored_path, file_size FROM photos WHERE id = ?').get(photoIds[i]) as { sha256: string; stored_path: string; file_size: number };
    const stored = fs.readFileSync(path.join(s.dataDir, row.stored_path));
    assert.equal(row.sha256, sha256(f.data), `${f.id}: the row's SHA-256 is the phone's file's`);
    assert.equal(sha256(stored), row.sha256, `${f.id}: the stored file is its row's`);
    assert.equal(stored.length, row.file_size);
  }
});
