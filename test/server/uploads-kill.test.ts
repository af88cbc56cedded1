// The server process killed (SIGKILL) at many moments while the last chunks of uploads arrive,
// are stored and answered, then started again, and each phone resumes as the client does (it
// asks for the offset, then sends what is missing). Every file ends stored exactly once, byte
// for byte, and a file answered 201 before the kill keeps that photo.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../../server/db/open.js';
import { ServerProcess } from '../helpers/browser.js';
import { heldBeforeCommit } from '../helpers/disk.js';
import { sample } from '../helpers/samples.js';
import { sha256, uploadChunk, uploadFile, type Answer } from '../helpers/uploads.js';

const CHUNK = 400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: ServerProcess;
/** Every file sent so far: its bytes' SHA-256 -> the photo the phone was finally given. */
const sent = new Map<string, string>();

before(async () => {
  assert.ok(fs.existsSync('dist/server/main.js'), 'build first: node scripts/build.mjs');
  server = await new ServerProcess().start();
});
after(() => server.stop());

/** A real phone JPEG made unique (random bytes after its end marker), about a megabyte. */
const phoneFile = () => Buffer.concat([fs.readFileSync(sample('hdr_iphone_hdr_YES.jpg')), crypto.randomBytes(300_000)]);

const chunk = (data: Buffer, start: number, end: number, uploadId: string) =>
  uploadChunk(server.url, data.subarray(start, end), {
    chunk_start: start, chunk_end: end, total_size: data.length, filename: `${uploadId}.jpg`, session_id: 'kill', is_last_chunk: end === data.length, upload_id: uploadId,
  });

/** Every chunk but the last; returns where the last one starts. */
async function allButLast(data: Buffer, uploadId: string): Promise<number> {
  const lastStart = Math.floor((data.length - 1) / CHUNK) * CHUNK;
  for (let start = 0; start < lastStart; start += CHUNK) assert.equal((await chunk(data, start, start + CHUNK, uploadId)).status, 200);
  return lastStart;
}

/** What the client does after a failure: ask the offset, then send what is missing (the last byte again when all arrived). */
async function resume(data: Buffer, uploadId: string, seen?: (what: string) => void): Promise<Answer> {
  const q = `/api/upload-chunk/offset?upload_id=${uploadId}&session_id=kill&filename=${uploadId}.jpg&total_size=${data.length}`;
  const off = (await (await fetch(server.url + q)).json()) as { received_bytes: number; complete?: true; photo_id?: string };
  seen?.(off.complete ? 'complete at the offset call' : off.received_bytes === data.length ? 'every byte held, not stored' : 'bytes missing');
  if (off.complete) return { status: 200, body: { photo_id: off.photo_id } };
  let last: Answer = { status: 0, body: null };
  for (let start = Math.min(off.received_bytes, data.length - 1); start < data.length; start = Math.min(start + CHUNK, data.length)) {
    last = await chunk(data, start, Math.min(start + CHUNK, data.length), uploadId);
    if (last.status !== 200 && last.status !== 201) return last;
  }
  return last;
}

const database = () => path.join(server.dataDir, 'wedding.db');
const originals = () => path.join(server.dataDir, 'media', 'originals');

async function restart(): Promise<void> {
  server = await new ServerProcess(server.dataDir, {}, server.port).start();
}

/** Rows and files after the restarts: one photo and one original per file sent, each byte for byte. */
function everyFileStoredOnce(): void {
  const db = openDatabase(database(), { readonly: true });
  try {
    const photos = db.prepare('SELECT id, sha256, stored_path FROM photos').all() as { id: string; sha256: string; stored_path: string }[];
    assert.equal(photos.length, sent.size, 'one photo per file sent');
    for (const p of photos) {
      assert.equal(sent.get(p.sha256), p.id, `the photo the phone was given holds ${p.sha256}`);
      assert.equal(sha256(fs.readFileSync(path.join(server.dataDir, p.stored_path))), p.sha256, `${p.stored_path} byte for byte`);
    }
    assert.equal(fs.readdirSync(originals()).length, sent.size, 'no second copy in originals');
    assert.equal((db.prepare(`SELECT count(*) n FROM uploads WHERE status = 'receiving'`).get() as { n: number }).n, 0, 'no upload left unfinished');
  } finally {
    db.close();
  }
}

test('killed at varied moments of the last chunks, every file ends stored exactly once after restart and resume', async (t) => {
  const seen = new Map<string, number>();
  const count = (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1);
  for (const [round, delay] of [0, 3, 8, 15, 25, 40, 70, 120].entries()) {
    const files = [0, 1, 2].map((i) => ({ data: phoneFile(), id: `kill-${round}-${i}` }));
    const lasts = await Promise.all(files.map((f) => allButLast(f.data, f.id)));
    const answers = files.map((f, i) => chunk(f.data, lasts[i], f.data.length, f.id).catch((e: Error) => e));
    await sleep(delay);
    await server.stop('SIGKILL');
    const before = await Promise.all(answers);
    await restart();
    for (const [i, f] of files.entries()) {
      const early = before[i];
      count(early instanceof Error ? 'no answer before the kill' : `answered ${early.status} before the kill`);
      const r = await resume(f.data, f.id, count);
      assert.ok(r.status === 200 || r.status === 201, `round ${round} file ${i}: ${JSON.stringify(r.body)}`);
      if (!(early instanceof Error) && early.status === 201) assert.equal(r.body.photo_id, early.body.photo_id, 'an answered upload keeps its photo');
      sent.set(sha256(f.data), r.body.photo_id);
    }
  }
  t.diagnostic(`what the phones met: ${JSON.stringify(Object.fromEntries(seen))}`);
  everyFileStoredOnce();
});

test('killed between the rename into originals and the commit: the chunked upload finds its file again and stores it once', async () => {
  const data = phoneFile();
  const lastStart = await allButLast(data, 'kill-commit');
  const held = await heldBeforeCommit(database(), originals(), () => chunk(data, lastStart, data.length, 'kill-commit').catch((e: Error) => e));
  await server.stop('SIGKILL');
  held.release();
  const answer = held.answer;
  assert.ok((await answer) instanceof Error, 'no answer came');
  await restart();
  const r = await resume(data, 'kill-commit');
  assert.equal(r.status, 200, 'the offset call stores it and says so');
  sent.set(sha256(data), r.body.photo_id);
  everyFileStoredOnce();
});

test('killed between the rename and the commit of a single-request upload: the original is recovered, and the phone sending it again gets that photo', async () => {
  const data = phoneFile();
  const held = await heldBeforeCommit(database(), originals(), () => uploadFile(server.url, data, 'single.jpg', 'kill').catch((e: Error) => e));
  await server.stop('SIGKILL');
  held.release();
  const answer = held.answer;
  assert.ok((await answer) instanceof Error, 'no answer came');
  await restart();
  const again = await uploadFile(server.url, data, 'single.jpg', 'kill');
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(again.body.duplicate, true, 'the recovered photo holds these bytes');
  sent.set(sha256(data), again.body.photo_id);
  everyFileStoredOnce();
});
