import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { originalBytes, sha256, slowPost, waitFor } from './backup-helpers.js';

const FILE = sample('hdr_iphone_hdr_YES.jpg');
const CHUNK = 256 * 1024;
const UPLOAD_ID = 'shutdown-' + crypto.randomBytes(6).toString('hex');
const SESSION = 'shutdown-session';

function chunkFields(start: number, end: number, total: number): Record<string, string> {
  return {
    chunk_start: String(start),
    chunk_end: String(end),
    total_size: String(total),
    filename: 'IMG_0001.jpg',
    session_id: SESSION,
    is_last_chunk: String(end === total),
    upload_id: UPLOAD_ID,
  };
}

async function sendChunk(base: string, bytes: Buffer, start: number, end: number): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(chunkFields(start, end, bytes.length))) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes.subarray(start, end))], { type: 'application/octet-stream' }), 'blob');
  const res = await fetch(base + '/api/upload-chunk', { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

/** A chunk request left half-sent until `finish()`, like a phone on a slow connection. */
function slowChunk(base: string, bytes: Buffer, start: number, end: number) {
  return slowPost(base + '/api/upload-chunk', chunkFields(start, end, bytes.length), {
    bytes: bytes.subarray(start, end),
    filename: 'blob',
    type: 'application/octet-stream',
  });
}

function exitOf(proc: ServerProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const c = proc.child!;
  if (c.exitCode !== null) return Promise.resolve({ code: c.exitCode, signal: null });
  return new Promise((resolve) => c.once('exit', (code, signal) => resolve({ code, signal })));
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('SIGTERM on the built server', () => {
  const procs: ServerProcess[] = [];
  after(async () => {
    for (const p of procs) await p.stop('SIGKILL');
  });

  test('a chunked upload cut by a restart keeps every acknowledged chunk and completes byte-identical', async (t) => {
    const bytes = fs.readFileSync(FILE);
    assert.ok(bytes.length > 4 * CHUNK, 'the sample spans several chunks');
    const first = await new ServerProcess().start();
    procs.push(first);

    let acked = 0;
    for (let i = 0; i < 3; i++) {
      const r = await sendChunk(first.url, bytes, acked, acked + CHUNK);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.received_bytes, acked + CHUNK);
      acked = r.body.received_bytes;
    }

    // The fourth chunk is half sent when the signal arrives; the phone then sends the rest.
    const inflight = slowChunk(first.url, bytes, acked, acked + CHUNK);
    await pause(300);
    const exited = exitOf(first);
    const signalled = Date.now();
    first.child!.kill('SIGTERM');
    await pause(200);
    inflight.finish();
    const answer = await inflight.answer;
    if ('status' in answer && answer.status === 200) acked = answer.body.received_bytes; // finished within the grace period
    const { code, signal } = await exited;
    assert.equal(signal, null, 'node handled the signal itself');
    assert.equal(code, 0, `clean exit; log:\n${first.log}`);
    // Docker sends SIGKILL 10 s after SIGTERM; the server should be long gone by then.
    assert.ok(Date.now() - signalled < 4_000, `the process exits promptly once the in-flight chunk is answered (${Date.now() - signalled} ms)`);
    t.diagnostic(`in-flight chunk: ${JSON.stringify(answer)}; exit ${Date.now() - signalled} ms after SIGTERM`);

    const second = await new ServerProcess(first.dataDir).start();
    procs.push(second);
    const q = `session_id=${SESSION}&filename=IMG_0001.jpg&total_size=${bytes.length}&upload_id=${UPLOAD_ID}`;
    const off = await new TestClient(second.url).get(`/api/upload-chunk/offset?${q}`);
    assert.equal(off.status, 200);
    assert.ok(off.body.received_bytes >= acked, `offset ${off.body.received_bytes} keeps the ${acked} acknowledged bytes`);
    assert.ok(off.body.received_bytes <= bytes.length);

    // Resume from where the server says, in the same chunk size, to the end.
    let at = off.body.received_bytes as number;
    let last: { status: number; body: any } | undefined;
    while (at < bytes.length) {
      const end = Math.min(at + CHUNK, bytes.length);
      last = await sendChunk(second.url, bytes, at, end);
      if (end < bytes.length) {
        assert.equal(last.status, 200, JSON.stringify(last.body));
        at = last.body.received_bytes;
      } else at = end;
    }
    assert.equal(last!.status, 201, JSON.stringify(last!.body));
    const photoId = last!.body.photo_id as string;
    assert.ok(photoId);

    const admin = new TestClient(second.url);
    await admin.login();
    const stored = await originalBytes(admin, photoId);
    assert.equal(stored.length, bytes.length);
    assert.equal(sha256(stored), sha256(bytes), 'the resumed upload is byte-identical to the phone\'s file');
    await waitFor('processing to finish', async () => (await admin.get(`/api/photos/${photoId}/status`)).body.status === 'complete');

    const done = await new TestClient(second.url).get(`/api/upload-chunk/offset?${q}`);
    assert.equal(done.body.complete, true);
    assert.equal(done.body.photo_id, photoId);
  });

  test('an idle server with a live event stream exits 0 promptly', async (t) => {
    const proc = await new ServerProcess().start();
    procs.push(proc);
    const events = await fetch(proc.url + '/api/events');
    assert.equal(events.status, 200);
    const reading = (async () => {
      const reader = events.body!.getReader();
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
    })();
    const exited = exitOf(proc);
    const signalled = Date.now();
    proc.child!.kill('SIGTERM');
    const { code } = await exited;
    assert.equal(code, 0, proc.log);
    assert.ok(Date.now() - signalled < 5_000, 'an open event stream does not hold the shutdown');
    t.diagnostic(`exit ${Date.now() - signalled} ms after SIGTERM`);
    await reading; // the stream was ended by the server
  });
});
