import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { WORKER_MALLOC_CONF, WORKER_NICE } from '../../server/processing/media-worker-client.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { uploadFile } from '../helpers/uploads.js';
import { addPhoto } from './photos-fixture.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer({ PROCESSING_CONCURRENCY: '2' });
});
after(() => s.close());

/** Large camera-like JPEGs (12 MP of noise, so decoding and encoding take real work), all different. */
async function largePhotos(n: number): Promise<Buffer[]> {
  const [w, h] = [4000, 3000];
  const base = await sharp(crypto.randomBytes((w / 4) * (h / 4) * 3), { raw: { width: w / 4, height: h / 4, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  const out: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    crypto.randomFillSync(base, i * 100_000, 4096);
    out.push(await sharp(base, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).withExif({ IFD0: { Make: 'Canon', Model: `Rush ${i}` } }).toBuffer());
  }
  return out;
}

const processing = () => (s.ctx.sqlite.prepare(`SELECT count(*) AS n FROM photos WHERE status = 'processing'`).get() as { n: number }).n;

/** The nice value of a process or thread, from its stat line. */
function niceOf(statFile: string): number {
  const stat = fs.readFileSync(statFile, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}

/** This process's children running the media worker (the server runs inside this test process). */
function mediaWorkers(): number[] {
  const pids: number[] = [];
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const children = fs.readFileSync(`/proc/self/task/${tid}/children`, 'utf8').trim();
    for (const pid of children ? children.split(' ').map(Number) : []) {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker')) pids.push(pid);
    }
  }
  return pids;
}

/** CPU seconds process `pid` has used (user + system), from its stat line. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 per second)
}

test('while 8 large photos process, 50 gallery requests all answer; the image work runs in the media worker, below request priority', async () => {
  const guest = new TestClient(s.url);
  // A gallery with thumbnails to read.
  const shown: string[] = [];
  for (const f of ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg']) shown.push(await addPhoto(s, { file: sample(f), visible: true }));
  const gallery = await guest.fetch('/api/photos?limit=20&offset=0').then((r) => r.json());
  const thumbs: string[] = gallery.photos.map((p: { thumbnail_url: string }) => p.thumbnail_url);
  assert.equal(thumbs.length, 3);

  const files = await largePhotos(8);
  const uploads = await Promise.all(files.map((f, i) => uploadFile(s.url, f, `rush-${i}.jpg`)));
  assert.deepEqual(uploads.map((u) => u.status), Array(8).fill(201));
  const ids: string[] = uploads.map((u) => u.body.photo_id);
  assert.ok(processing() > 0, 'processing under way once the uploads are stored');

  // 50 gallery requests, 10 at a time, as guests browse: pages, thumbnails, stats, an upload's status.
  const paths = Array.from({ length: 50 }, (_, i) =>
    [`/api/photos?limit=20&offset=0`, thumbs[i % thumbs.length], '/api/stats', `/api/photos/${ids[i % 8]}/status`, `/media/${shown[i % 3]}/display`][i % 5],
  );
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < paths.length) {
        const res = await guest.fetch(paths[next++]);
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    }),
  );
  const stillProcessing = processing();
  assert.deepEqual(statuses, Array(50).fill(200), 'every gallery request answered');
  assert.ok(stillProcessing > 0, `the gallery answered while photos were still processing (${stillProcessing} left)`);

  // The image work happens in the media worker, a child process at a lower CPU priority.
  const workers = mediaWorkers();
  assert.equal(workers.length, 1, 'one media worker runs');
  assert.equal(niceOf(`/proc/${workers[0]}/stat`), WORKER_NICE, `the media worker runs at nice ${WORKER_NICE}`);
  assert.equal(niceOf('/proc/self/stat'), 0, 'requests are answered at the normal priority');
  // Where the image preloads jemalloc, the worker gives its pixel buffers back within a second.
  const environ = fs.readFileSync(`/proc/${workers[0]}/environ`, 'utf8').split('\0');
  assert.ok(environ.includes(`MALLOC_CONF=${process.env.MALLOC_CONF ?? WORKER_MALLOC_CONF}`), "the media worker has jemalloc's settings");
  await s.services.processing.idle();
  // Decoding and resizing eight 12 MP photos takes seconds of CPU: they were spent in the worker.
  assert.ok(cpuSeconds(workers[0]) > 2, `the media worker did the image work (${cpuSeconds(workers[0])} s of CPU)`);
  for (const id of ids) {
    const st = await guest.fetch(`/api/photos/${id}/status`).then((r) => r.json());
    assert.equal(st.status, 'complete');
  }
});

test('storage_used is summed from the database: derivatives are measured once, and a deleted photo drops out', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const used = async () => (await admin.get('/admin/api/dashboard')).body.stats.storage_used as number;
  const before = await used();
  const id = await addPhoto(s, { visible: true, file: sample('hdr_iphone_hdr_YES.jpg') });
  const row = await s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const size = (rel: string | null) => fs.statSync(`${s.dataDir}/${rel}`).size;
  const derived = size(row.thumb_path) + size(row.display_path);
  assert.equal((await used()) - before, row.file_size + derived, 'counted at once, before the measurement is recorded');
  await s.services.disk.recorded();
  assert.equal((await used()) - before, row.file_size + derived, 'counted once, from the record');
  const measured = await s.ctx.db.selectFrom('media_bytes').selectAll().where('photo_id', '=', id).executeTakeFirstOrThrow();
  assert.equal(measured.bytes, derived, 'the measurement is kept in SQLite');
  assert.equal((await admin.del(`/admin/api/photos/${id}/delete`)).status, 200);
  assert.equal(await used(), before);
  assert.equal(await s.ctx.db.selectFrom('media_bytes').selectAll().where('photo_id', '=', id).executeTakeFirst(), undefined);
});

test('an upload answer tells the server its own time after the body (Server-Timing), which the rush benchmark reads', async () => {
  const form = new FormData();
  form.append('session_id', 'timing');
  form.append('file', new Blob([new Uint8Array(fs.readFileSync(sample('Nikon_D70.jpg')))]), 'timing.jpg');
  const res = await fetch(`${s.url}/api/upload`, { method: 'POST', body: form });
  assert.ok(res.status === 201 || res.status === 200, `stored: ${res.status}`);
  assert.match(res.headers.get('server-timing') ?? '', /^after-body;dur=\d+(\.\d+)?$/);
  const page = await fetch(`${s.url}/api/photos`);
  assert.equal(page.headers.get('server-timing'), null, 'only uploads carry it');
});

test('thumbnails and display images are answered from memory after the first read, with the validators and privacy of the file', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const guest = new TestClient(s.url);
  const id = await addPhoto(s, { visible: true, file: sample('Nikon_D70.jpg') });
  const row = await s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const thumbFile = `${s.dataDir}/${row.thumb_path}`;
  const url = `/media/${id}/thumb?v=${row.derivative_version}`;

  const first = await guest.fetch(url);
  const bytes = Buffer.from(await first.arrayBuffer());
  assert.equal(first.status, 200);
  assert.equal(first.headers.get('content-type'), 'image/webp');
  assert.equal(first.headers.get('cache-control'), 'private, max-age=31536000, immutable');
  assert.deepEqual(bytes, fs.readFileSync(thumbFile));
  const etag = first.headers.get('etag')!;
  assert.match(etag, /^W\/"[0-9a-f]+-[0-9a-f]+"$/);

  // A browser's copy is still valid: 304, no body. A Range request is answered from the file.
  // (fetch would add "Cache-Control: no-cache" to a conditional request; a browser revalidating sends max-age=0.)
  assert.equal((await guest.fetch(url, { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } })).status, 304);
  const part = await guest.fetch(url, { headers: { range: 'bytes=0-9' } });
  assert.equal(part.status, 206);
  assert.deepEqual(Buffer.from(await part.arrayBuffer()), bytes.subarray(0, 10));

  // The file is gone from the disk (as if the disk were busy elsewhere): the bytes come from memory.
  fs.rmSync(thumbFile);
  const again = await guest.fetch(url);
  assert.equal(again.status, 200);
  assert.deepEqual(Buffer.from(await again.arrayBuffer()), bytes);
  assert.equal(again.headers.get('etag'), etag, 'the same validator as before');

  // Hidden: held in memory or not, a guest gets the same 404 as for an unknown id.
  assert.equal((await admin.post(`/admin/api/photos/${id}/hide`)).status, 200);
  const hidden = await guest.fetch(url);
  assert.equal(hidden.status, 404);
  assert.equal((await admin.fetch(url)).status, 200, 'an admin still sees it');
});

test('a rotated photo\'s thumbnail is its new file, never the copy held in memory; a deleted photo\'s held copy is never served', async () => {
  const admin = new TestClient(s.url);
  await admin.login();
  const guest = new TestClient(s.url);
  const id = await addPhoto(s, { visible: true, file: sample('Nikon_D70.jpg') });
  const thumb = async () => {
    const row = await s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { url: `/media/${id}/thumb?v=${row.derivative_version}`, file: `${s.dataDir}/${row.thumb_path}` };
  };
  const before = await thumb();
  const held = Buffer.from(await (await guest.fetch(before.url)).arrayBuffer());
  assert.deepEqual(held, fs.readFileSync(before.file));

  assert.equal((await admin.json('POST', `/admin/api/photos/${id}/rotate`, { degrees: 90 })).status, 200);
  const after = await thumb();
  assert.notEqual(after.url, before.url, 'a new version, so a new address');
  for (const url of [after.url, `/media/${id}/thumb`]) {
    const bytes = Buffer.from(await (await guest.fetch(url)).arrayBuffer());
    assert.deepEqual(bytes, fs.readFileSync(after.file), `${url}: the rotated file's bytes`);
    assert.notDeepEqual(bytes, held);
  }

  assert.equal((await admin.json('DELETE', `/admin/api/photos/${id}/delete`)).status, 200);
  assert.equal((await guest.fetch(after.url)).status, 404, 'held in memory or not, a deleted photo is gone');
  assert.equal((await admin.fetch(after.url)).status, 404);
});
