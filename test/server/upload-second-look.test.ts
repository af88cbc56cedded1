// The upload path on a public address, second look (CONTRACT "Holding up, second look" and
// "Nothing acknowledged is ever lost"): turns are bounded in size and per address; a body that
// does not say its length is held to the storage limits as it arrives and a chunk spools at most
// one chunk; a photo whose commit's answer was lost keeps its original; a disk that fails a sync
// of a last chunk is a 503 with Retry-After, and the bytes are stored at the next try.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import sharp from 'sharp';
import type { Kysely } from 'kysely';
import { createKysely } from '../../server/db/open.js';
import type { DB } from '../../server/db/schema.js';
import { DatabaseWriter, WriterUnavailable, type SqlWriter } from '../../server/db/writer.js';
import { MAX_SPOOLED_BYTES } from '../../server/uploads/chunked-upload.js';
import { MAX_TURN_BYTES, TURNS_PER_ADDRESS } from '../../server/uploads/turns.js';
import type { ReadForm } from '../../server/uploads/streams.js';
import { UploadsService } from '../../server/uploads/uploads.service.js';
import { startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { sha256, uploadChunk, type ChunkForm } from '../helpers/uploads.js';

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A real JPEG padded with random bytes (decoders stop at its end marker) to `size` bytes. */
async function bigJpeg(size: number, seed: number): Promise<Buffer> {
  const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r: seed, g: 40, b: 90 } } }).jpeg().toBuffer();
  return Buffer.concat([jpeg, crypto.randomBytes(size - jpeg.length)]);
}

const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

// ---------------------------------------------------------------------------------------------
// 1. Turns

test('a turn is at most the largest request the page sends: more is 400 with a sentence, nothing waits', async () => {
  const s = await startTestServer();
  try {
    for (const bytes of [2 * 1024 ** 3 - 1, MAX_TURN_BYTES + 1, 'lots']) {
      const res = await fetch(`${s.url}/api/upload-turn?bytes=${bytes}`);
      const body = (await res.json()) as { success: boolean; error: string; code: string };
      assert.equal(res.status, 400, `bytes=${bytes}`);
      assert.equal(body.success, false);
      assert.equal(body.code, 'invalid_input');
      assert.match(body.error, new RegExp(`at most ${MAX_TURN_BYTES}`));
    }
    assert.ok(MAX_TURN_BYTES >= 5 * MiB + 1024, "the page's 5 MiB chunk, with its form around it, fits");
    const ok = await fetch(`${s.url}/api/upload-turn?bytes=${5 * MiB}`);
    assert.equal(ok.status, 200);
    assert.equal(typeof ((await ok.json()) as { turn: unknown }).turn, 'string');
  } finally {
    await s.close();
  }
});

test(`one address holds at most ${TURNS_PER_ADDRESS} asks and turns, used or not: beyond, 429 with Retry-After; another address still gets its turn`, async () => {
  const s = await startTestServer({ TRUST_PROXY: 'true' });
  const from = (address: string) => ({ headers: { 'X-Forwarded-For': address } });
  try {
    const aborts: AbortController[] = [];
    const asks = Array.from({ length: TURNS_PER_ADDRESS }, () => {
      const abort = new AbortController();
      aborts.push(abort);
      return fetch(`${s.url}/api/upload-turn?bytes=${5 * MiB}`, { ...from('203.0.113.7'), signal: abort.signal }).then(
        (r) => r.status,
        () => 0,
      );
    });
    // Some given (never used), the others waiting; 2 s lets all eight arrive on a loaded machine and
    // stays under CLAIM_MS (5 s), after which the unused turns would be given back.
    await sleep(2000);
    const refused = await fetch(`${s.url}/api/upload-turn?bytes=${5 * MiB}`, from('203.0.113.7'));
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0, 'with Retry-After');
    assert.equal(((await refused.json()) as { code: string }).code, 'rate_limited');

    const other = await fetch(`${s.url}/api/upload-turn?bytes=${5 * MiB}`, from('198.51.100.2'));
    assert.equal(other.status, 200);
    assert.equal(typeof ((await other.json()) as { turn: unknown }).turn, 'string', "the flooding address's turns keep nobody else waiting long");
    for (const a of aborts) a.abort();
    await Promise.all(asks);
  } finally {
    await s.close();
  }
});

// ---------------------------------------------------------------------------------------------
// 2. Bodies without a length, and spooled chunks

/**
 * POST `path` with Transfer-Encoding: chunked (no Content-Length): a multipart form with
 * `fieldsBefore`, then a file part of `head` and random bytes after it, sent until the server
 * answers or `most` bytes were sent. Resolves with the answer and how many bytes went.
 */
function sendWithoutLength(base: string, route: string, fieldsBefore: Record<string, string>, head: Buffer, most: number, fieldsAfter: Record<string, string> = {}): Promise<{ status: number; body: any; sent: number }> {
  const boundary = `----second-look-${crypto.randomBytes(6).toString('hex')}`;
  const field = (k: string, v: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  return new Promise((resolve, reject) => {
    const url = new URL(route, base);
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' } });
    let sent = 0;
    let answered = false;
    const piece = crypto.randomBytes(256 * 1024);
    const write = (b: Buffer | string) => {
      sent += Buffer.byteLength(b);
      return req.write(b);
    };
    req.on('response', (res) => {
      answered = true;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        resolve({ status: res.statusCode!, body, sent });
        req.destroy();
      });
    });
    req.on('error', (e) => {
      if (!answered) reject(e);
    });
    write(Object.entries(fieldsBefore).map(([k, v]) => field(k, v)).join(''));
    write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="long.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
    write(head);
    const pump = () => {
      while (!answered && sent < most) {
        if (!write(piece)) return void req.once('drain', pump);
      }
      if (answered) return;
      write(`\r\n${Object.entries(fieldsAfter).map(([k, v]) => field(k, v)).join('')}--${boundary}--\r\n`);
      req.end();
    };
    pump();
  });
}

test('a whole file sent without Content-Length counts against STORAGE_LIMIT_GB as it arrives: 507 once past it, the connection ended, nothing kept', async () => {
  const s = await startTestServer({ STORAGE_LIMIT_GB: String(16 / 1024) }); // 16 MiB
  try {
    const head = await bigJpeg(64 * 1024, 1);
    const r = await sendWithoutLength(s.url, '/api/upload', { session_id: 'no-length' }, head, 200 * MiB);
    assert.equal(r.status, 507, JSON.stringify(r.body));
    assert.equal(r.body.code, 'storage_full');
    assert.ok(r.sent < 100 * MiB, `answered while the body was still coming (${(r.sent / MiB).toFixed(0)} MiB sent)`);
    await sleep(200);
    assert.deepEqual(filesIn(s.ctx.paths.incoming), [], 'nothing kept in incoming');
    assert.deepEqual(filesIn(s.ctx.paths.originals), [], 'no original');
    assert.equal((s.ctx.sqlite.prepare('SELECT count(*) n FROM photos').get() as { n: number }).n, 0);
    const health = await fetch(`${s.url}/api/health`);
    assert.equal(health.status, 200, 'the server runs on');
  } finally {
    await s.close();
  }
});

test('a whole file sent without Content-Length is held to MIN_FREE_MB as it arrives', async () => {
  const dataDir = (await import('../helpers/temp.js')).tempDir();
  const st = fs.statfsSync(dataDir);
  const free = st.bavail * st.bsize;
  // Room for about 24 MiB above the floor.
  const minFreeMb = Math.floor((free - 24 * MiB) / MiB);
  if (minFreeMb < 1) return; // a disk this full cannot take the test
  const s = await startTestServer({ MIN_FREE_MB: String(minFreeMb) }, dataDir);
  try {
    const head = await bigJpeg(64 * 1024, 2);
    const r = await sendWithoutLength(s.url, '/api/upload', { session_id: 'no-length-floor' }, head, 300 * MiB);
    assert.equal(r.status, 507, JSON.stringify(r.body));
    assert.ok(r.sent < 200 * MiB, `answered while the body was still coming (${(r.sent / MiB).toFixed(0)} MiB sent)`);
    await sleep(200);
    assert.deepEqual(filesIn(s.ctx.paths.incoming), []);
    assert.deepEqual(filesIn(s.ctx.paths.originals), []);
  } finally {
    await s.close();
  }
});

test('a chunk whose fields come after its bytes spools at most one chunk: more is 413 and nothing stays', async () => {
  const s = await startTestServer();
  try {
    const head = await bigJpeg(64 * 1024, 3);
    const total = 64 * MiB;
    const fields = { chunk_start: '0', chunk_end: String(total), total_size: String(total), filename: 'spool.jpg', session_id: 'spool', is_last_chunk: 'true', upload_id: 'spool-1' };
    const r = await sendWithoutLength(s.url, '/api/upload-chunk', {}, head, total, fields);
    assert.equal(r.status, 413, JSON.stringify(r.body));
    assert.equal(r.body.code, 'too_large');
    assert.ok(r.sent < total, `answered while the body was still coming (${(r.sent / MiB).toFixed(0)} MiB sent)`);
    await sleep(200);
    assert.deepEqual(filesIn(s.ctx.paths.incoming), [], 'the spooled bytes are gone');
    assert.equal((s.ctx.sqlite.prepare('SELECT count(*) n FROM uploads').get() as { n: number }).n, 0);

    // One chunk of the page's, fields after: taken as before.
    const data = await bigJpeg(MAX_SPOOLED_BYTES, 4);
    const ok = await uploadChunk(s.url, data, { chunk_start: 0, chunk_end: data.length, total_size: data.length, filename: 'one.jpg', session_id: 'spool', is_last_chunk: true, upload_id: 'spool-2' }, true);
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  } finally {
    await s.close();
  }
});

// ---------------------------------------------------------------------------------------------
// 3. The commit's answer lost

/**
 * The server's database writer, except that the answer to a COMMIT is lost once it has run, as
 * when the writer thread dies between its commit and its answer.
 */
function answerLostAfterCommit(database: string): { writer: SqlWriter; lost: () => number } {
  const real = new DatabaseWriter({ file: database });
  let lost = 0;
  const writer: SqlWriter = {
    run: (sql, params) => real.run(sql, params),
    close: () => real.close(),
    async hold() {
      const held = await real.hold();
      return {
        release: () => held.release(),
        async run(sql, params) {
          const r = await held.run(sql, params);
          if (/^\s*commit\b/i.test(sql)) {
            lost++;
            throw new WriterUnavailable('WRITER_STOPPED');
          }
          return r;
        },
      };
    },
  };
  return { writer, lost: () => lost };
}

/** One form, as the multipart reader hands it on: `fields` before the file part. */
const formOf = (fields: Record<string, string>, data: Buffer): ReadForm => async (onFile) => {
  await onFile(Readable.from([data]), fields.filename ?? 'photo.jpg', fields, { arrived: () => true, remaining: () => 0, since: performance.now(), length: data.length });
  return { fields, sawFile: true };
};

test("a photo whose commit's answer is lost keeps its original: the row is found, the file stays in originals, the upload is answered as stored", async () => {
  const s = await startTestServer();
  const { writer, lost } = answerLostAfterCommit(s.ctx.paths.database);
  const db: Kysely<DB> = createKysely(s.ctx.sqlite, writer);
  try {
    const { config, paths } = s.ctx;
    const { settings, processing, storage } = s.services;
    const uploads = new UploadsService({ config, paths, db, settings, processing, storage });

    // A single upload.
    const single = await bigJpeg(200_000, 5);
    const stored = await uploads.receiveFile(formOf({ session_id: 'lost-answer' }, single));
    assert.equal(lost(), 1, 'the commit ran and its answer was lost');
    assert.equal(stored.duplicate, false);
    const row = s.ctx.sqlite.prepare('SELECT stored_path, sha256 FROM photos WHERE id = ?').get(stored.photoId) as { stored_path: string; sha256: string };
    assert.ok(row, 'the photo row exists');
    const file = path.join(s.dataDir, row.stored_path);
    assert.ok(fs.existsSync(file), 'its original is in originals');
    assert.equal(sha256(fs.readFileSync(file)), sha256(single));

    // A chunked upload's last chunk.
    const data = await bigJpeg(300_000, 6);
    const chunk = (start: number, end: number) =>
      formOf({ chunk_start: String(start), chunk_end: String(end), total_size: String(data.length), filename: 'lost.jpg', session_id: 'lost-answer', is_last_chunk: String(end === data.length), upload_id: 'lost-answer-1' }, data.subarray(start, end));
    const first = await uploads.receiveChunk(chunk(0, 100_000));
    assert.deepEqual(first, { progress: { received_bytes: 100_000 } });
    const last = await uploads.receiveChunk(chunk(100_000, data.length));
    assert.equal(lost(), 2);
    assert.ok('stored' in last, JSON.stringify(last));
    const photo = s.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(last.stored.photoId) as { stored_path: string };
    assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, photo.stored_path))), sha256(data), 'the chunked upload is stored byte for byte');
    const up = s.ctx.sqlite.prepare('SELECT status, photo_id FROM uploads WHERE upload_key = ?').get('id:lost-answer-1') as { status: string; photo_id: string };
    assert.deepEqual(up, { status: 'complete', photo_id: last.stored.photoId });

    // The sweeps that follow (stale partials, leftovers in incoming) leave both alone.
    await uploads.cleanup(0, Date.now() + 60_000);
    assert.ok(fs.existsSync(file));
    assert.ok(fs.existsSync(path.join(s.dataDir, photo.stored_path)));
  } finally {
    await writer.close();
    await s.close();
  }
});

// ---------------------------------------------------------------------------------------------
// 4. A disk that fails a sync of the last chunk

/** fs.fdatasync fails with EIO for the next `times` calls (the disk's error, as the kernel reports it). */
function failingSyncs(times: number): { restore(): void; failed(): number } {
  const original = fs.fdatasync;
  let failed = 0;
  (fs as { fdatasync: typeof fs.fdatasync }).fdatasync = ((fd: number, cb: fs.NoParamCallback) => {
    if (failed < times) {
      failed++;
      return process.nextTick(cb, Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5, syscall: 'fdatasync' }));
    }
    return original(fd, cb);
  }) as typeof fs.fdatasync;
  return { restore: () => ((fs as { fdatasync: typeof fs.fdatasync }).fdatasync = original), failed: () => failed };
}

const chunkForm = (data: Buffer, start: number, end: number, uploadId: string): ChunkForm => ({
  chunk_start: start, chunk_end: end, total_size: data.length, filename: `${uploadId}.jpg`, session_id: 'eio', is_last_chunk: end === data.length, upload_id: uploadId,
});

test('EIO at the sync of a last chunk: 503 with Retry-After, every byte kept; the last chunk again stores it, and so does the offset call', async () => {
  const s = await startTestServer();
  try {
    for (const finish of ['last chunk again', 'offset call'] as const) {
      const id = `eio-${finish === 'offset call' ? 'offset' : 'again'}`;
      const data = await bigJpeg(3 * MiB, finish === 'offset call' ? 8 : 7);
      assert.equal((await uploadChunk(s.url, data.subarray(0, 2 * MiB), chunkForm(data, 0, 2 * MiB, id))).status, 200);
      const disk = failingSyncs(1);
      let failed;
      try {
        failed = await uploadChunk(s.url, data.subarray(2 * MiB), chunkForm(data, 2 * MiB, data.length, id));
      } finally {
        disk.restore();
      }
      assert.equal(disk.failed(), 1, 'the sync failed once');
      assert.equal(failed.status, 503, JSON.stringify(failed.body));
      assert.equal(failed.body.code, 'unavailable');
      assert.ok(Number(failed.retryAfter) > 0, 'with Retry-After');
      const row = s.ctx.sqlite.prepare('SELECT status, temp_path FROM uploads WHERE upload_key = ?').get(`id:${id}`) as { status: string; temp_path: string };
      assert.equal(row.status, 'receiving');
      assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, row.temp_path))), sha256(data), 'every byte is kept');

      let photoId: string;
      if (finish === 'last chunk again') {
        const again = await uploadChunk(s.url, data.subarray(2 * MiB), chunkForm(data, 2 * MiB, data.length, id));
        assert.equal(again.status, 201, JSON.stringify(again.body));
        photoId = again.body.photo_id;
      } else {
        const res = await new TestClient(s.url).fetch(`/api/upload-chunk/offset?upload_id=${id}`);
        const body = (await res.json()) as { received_bytes: number; complete?: boolean; photo_id?: string };
        assert.equal(res.status, 200);
        assert.equal(body.complete, true, JSON.stringify(body));
        assert.equal(body.received_bytes, data.length);
        photoId = body.photo_id!;
      }
      const photo = s.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(photoId) as { stored_path: string };
      assert.equal(sha256(fs.readFileSync(path.join(s.dataDir, photo.stored_path))), sha256(data), `${finish}: stored byte for byte`);
    }
  } finally {
    await s.close();
  }
});
