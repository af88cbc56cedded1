import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import sharp from 'sharp';
import { after, before, test } from 'node:test';
import { faceless, GROUP_PHOTOS, selfieFrom, SELFIE_LOOKS } from '../helpers/faces.js';
import { sample } from '../helpers/samples.js';
import { createBackup } from '../../server/backup/create.js';
import { openDatabase } from '../../server/db/open.js';
import { serverWithAdmin, tempDir, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { waitFor } from './backup-helpers.js';
import { anyFileHolds, FACE_IN_PHOTO_1, faceRows, searchDone, sendSelfie, uploadVisible } from './faces-helpers.js';

// One server and one set of face workers for the file: loading the networks takes seconds. The
// workers run at normal priority here: at nice 19 on a machine busy with other work they get
// next to no CPU, and these tests are about what the search does, not how fast (bench:faces).
let s: TestServer;
let admin: TestClient;
let anna: TestClient;
let ben: TestClient;
let uploader: TestClient;
const photoIds: string[] = [];
let selfie: Buffer;

before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin({ FACE_NICE: '0' }));
  ben = new TestClient(s.url);
  uploader = new TestClient(s.url);
  for (const [i, file] of GROUP_PHOTOS.entries()) photoIds.push(await uploadVisible(uploader, admin, file, `group-${i + 1}.jpg`));
  selfie = await selfieFrom(GROUP_PHOTOS[0], FACE_IN_PHOTO_1, SELFIE_LOOKS[0]);
});
after(() => s.close());

/** Face workers this test process started (they are its children). */
const faceWorkerProcesses = () =>
  spawnSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' }).stdout.split('\n').filter((l) => l.includes('face-worker'));

const turn = (on: boolean, until?: string) => admin.put('/admin/api/settings', { face_search: on, ...(until ? { face_search_until: until } : {}) });

test('face search is off by default: every /api/faces route answers 404 face_search_off and no face worker runs', async () => {
  assert.equal((await anna.get('/api/settings')).body.settings.face_search, false);
  for (const [method, r] of [
    ['GET', await anna.get('/api/faces/me')],
    ['DELETE', await anna.del('/api/faces/me')],
    ['POST', await sendSelfie(anna, selfie, 'true')],
  ] as const) {
    assert.equal(r.status, 404, method);
    assert.equal(r.body.code, 'face_search_off', method);
    assert.equal(typeof r.body.error, 'string');
  }
  assert.equal((await admin.get('/admin/api/faces')).body.faces.enabled, false);
  assert.deepEqual(faceWorkerProcesses(), [], 'no face worker was started');
});

test('turning it on sets the end 60 days ahead; a past end is refused', async () => {
  const r = await turn(true);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const until = Date.parse(r.body.settings.face_search_until);
  assert.ok(Math.abs(until - (Date.now() + 60 * 86_400_000)) < 60_000, r.body.settings.face_search_until);
  const past = await admin.put('/admin/api/settings', { face_search_until: '2020-01-01' });
  assert.equal(past.status, 400);
  const date = await admin.put('/admin/api/settings', { face_search_until: '2099-12-31' });
  assert.equal(date.status, 200);
  assert.equal(new Date(date.body.settings.face_search_until).getUTCFullYear() >= 2099, true);
  const status = (await admin.get('/admin/api/faces')).body.faces;
  assert.equal(status.enabled, true);
  assert.equal(status.guests, 0);
});

test('while it is on, the face boxes of every visible photo are measured before anyone asks; no face code is made', async () => {
  await waitFor('boxes measured ahead', async () => faceRows(s, 'face_boxes') === photoIds.length, 600_000);
  assert.equal(faceRows(s, 'face_guests'), 0);
  assert.equal(faceRows(s, 'face_matches'), 0);
  const status = (await admin.get('/admin/api/faces')).body.faces;
  assert.equal(status.photos_to_scan, 0, 'nothing left to measure');
  // A guest's scan takes the photos whose boxes are known first.
  const [last] = photoIds.slice(-1);
  s.writable().prepare('DELETE FROM face_boxes WHERE photo_id = ?').run(last);
  const order = await s.services.faces.repo.scanOrder('someone-else');
  assert.equal(order.length, photoIds.length);
  assert.equal(order.at(-1), last, 'the photo without boxes comes last');
  assert.deepEqual(await s.services.faces.repo.unmeasured(), [last]);
  s.services.faces.scanner.prepare([last]);
  await waitFor('measured again', async () => faceRows(s, 'face_boxes') === photoIds.length, 600_000);
});

test('a selfie without the consent box ticked is 400 consent_required and nothing is stored', async () => {
  for (const consent of [undefined, 'false', 'yes']) {
    const r = await sendSelfie(anna, selfie, consent);
    assert.equal(r.status, 400, String(consent));
    assert.equal(r.body.code, 'consent_required');
  }
  assert.equal(faceRows(s, 'face_guests'), 0);
});

test('a picture without a face is 422 no_face; a file that is no picture is 415; over 15 MB is 413', async () => {
  const none = await sendSelfie(anna, await faceless(), 'true');
  assert.equal(none.status, 422, JSON.stringify(none.body));
  assert.equal(none.body.code, 'no_face');
  const text = await sendSelfie(anna, Buffer.from('not a picture at all, just words'), 'true');
  assert.equal(text.status, 415);
  const big = await sendSelfie(anna, Buffer.alloc(15 * 1024 * 1024 + 1, 0xff), 'true');
  assert.equal(big.status, 413);
  assert.equal(faceRows(s, 'face_guests'), 0);
});

test('an iPhone HEIC selfie is decoded (its face is found) and nothing is left in the scratch folder', async () => {
  const heic = fs.readFileSync(sample('heic_IMG_5195.HEIC'));
  const before = fs.readdirSync('/dev/shm').filter((f) => f.startsWith('selfie-'));
  const r = await sendSelfie(ben, heic, 'true', 'image/heic');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(fs.readdirSync('/dev/shm').filter((f) => f.startsWith('selfie-')), before);
  assert.equal((await ben.del('/api/faces/me')).status, 200);
  assert.equal(faceRows(s, 'face_guests'), 0);
});

/** `selfie-*` entries in the places a decoder could write to: memory-backed or not. */
const scratchEntries = () => ['/dev/shm', os.tmpdir()].flatMap((dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith('selfie-')).map((f) => path.join(dir, f)) : []));

test('a HEIC selfie never touches a disk, and stopping the face workers in the middle of its decoding leaves nothing behind', async () => {
  const heic = fs.readFileSync(sample('heic_IMG_5195.HEIC'));
  const before = new Set(scratchEntries());
  const appeared = new Set<string>();
  let watching = true;
  const watch = (async () => {
    while (watching) {
      for (const e of scratchEntries()) if (!before.has(e)) appeared.add(e);
      await sleep(5);
    }
  })();
  try {
    const whole = await sendSelfie(ben, heic, 'true', 'image/heic');
    assert.equal(whole.status, 200, JSON.stringify(whole.body));
    // The next one is cut short: the face workers stop (as at shutdown) while it is decoded.
    const cut = sendSelfie(ben, heic, 'true', 'image/heic');
    await sleep(300);
    await s.services.faces.stop();
    const answer = await cut;
    assert.ok([200, 422].includes(answer.status), JSON.stringify(answer.body));
  } finally {
    watching = false;
    await watch;
  }
  assert.deepEqual([...appeared], [], 'no folder or file was made for the selfie');
  assert.deepEqual(scratchEntries().filter((e) => !before.has(e)), []);
  assert.equal((await ben.del('/api/faces/me')).status, 200);
  assert.equal(faceRows(s, 'face_guests'), 0);
});

/** A selfie request from one loopback address (the server sees each as another client). */
function rawSelfie(localAddress: string, consent: string, stall = false): { req: http.ClientRequest; answer: Promise<{ status: number; retryAfter?: string; body: any }> } {
  const boundary = 'selfie-boundary';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="consent"\r\n\r\n${consent}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="selfie"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const picture = Buffer.alloc(2000, 0xff);
  const { port } = new URL(s.url);
  const req = http.request({
    host: '127.0.0.1',
    port,
    localAddress,
    path: '/api/faces/me',
    method: 'POST',
    headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + picture.length + tail.length + (stall ? 1 << 20 : 0)) },
  });
  const answer = new Promise<{ status: number; retryAfter?: string; body: any }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: text ? JSON.parse(text) : null }));
    });
    req.on('error', reject);
  });
  req.write(head);
  // A stalled selfie: half sent, as from a slow phone, so its search stays in progress.
  if (stall) req.write(picture.subarray(0, 1000));
  else req.end(Buffer.concat([picture, tail]));
  if (stall) answer.catch(() => {});
  return { req, answer };
}

/** Probes from `address` until its answer's status is `status`: the slots are taken as each request's headers arrive. */
async function untilAnswer(address: string, status: number) {
  return waitFor(`${status} from ${address}`, async () => {
    const a = await rawSelfie(address, 'false').answer;
    return a.status === status ? a : undefined;
  }, 30_000);
}

test('selfies in progress: one per address and four server-wide; beyond, 429 with Retry-After and a readable message', async () => {
  const stalled = [rawSelfie('127.0.0.2', 'true', true)];
  try {
    const same = await untilAnswer('127.0.0.2', 429);
    assert.equal(same.body.code, 'rate_limited');
    assert.ok(Number(same.retryAfter) > 0, `Retry-After: ${same.retryAfter}`);
    assert.equal(same.body.error, 'Lots of guests are looking for their photos right now. Please try again in a moment.');
    // Another address still gets in (and is told about the consent box: the form was read).
    assert.equal((await rawSelfie('127.0.0.9', 'false').answer).body.code, 'consent_required');
    for (const a of ['127.0.0.3', '127.0.0.4', '127.0.0.5']) stalled.push(rawSelfie(a, 'true', true));
    const full = await untilAnswer('127.0.0.9', 429);
    assert.equal(full.body.code, 'rate_limited');
    assert.ok(Number(full.retryAfter) > 0);
  } finally {
    for (const x of stalled) x.req.destroy();
  }
  // A phone that went away gives its place back.
  await untilAnswer('127.0.0.9', 400);
  await untilAnswer('127.0.0.2', 400);
});

test("a mirrored, rescaled, relit selfie finds the crop's source photo first, and other people's photos stay below the threshold", async () => {
  const first = await sendSelfie(anna, selfie, 'true');
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.success, true);
  assert.equal(typeof first.body.searching, 'boolean');
  assert.equal(first.body.total, 6);
  const done = await searchDone(anna);
  assert.equal(done.scanned, 6);
  assert.ok(done.matches.length >= 1, 'found');
  assert.equal(done.matches[0].id, photoIds[0], 'the source photo first');
  assert.ok(done.matches[0].similarity > 0.5 && done.matches[0].similarity <= 1, String(done.matches[0].similarity));
  for (const m of done.matches) assert.ok(m.thumbnail_url && m.similarity >= 0.5, 'gallery items with a similarity over the threshold');
  assert.deepEqual(done.matches.map((m: any) => m.id), [photoIds[0]], 'none of the other five photos shows her');
});

test('the database holds a face code for the guest who asked only; boxes are coordinates; the selfie is nowhere under DATA_DIR', async () => {
  assert.equal(faceRows(s, 'face_guests'), 1);
  const guest = s.ctx.sqlite.prepare('SELECT guest_id, length(code) AS n FROM face_guests').get() as { guest_id: string; n: number };
  assert.equal(guest.n, 512, '128 numbers');
  assert.ok(anna.cookieHeader().includes(guest.guest_id));
  const boxes = s.ctx.sqlite.prepare('SELECT boxes FROM face_boxes').all() as { boxes: string }[];
  assert.equal(boxes.length, 6);
  for (const b of boxes) for (const box of JSON.parse(b.boxes)) assert.ok(box.length === 4 && box.every((v: number) => v >= 0 && v <= 1.5));
  const blobs = s.ctx.sqlite.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
  // Two-step sign-in's recovery_codes hold hashed sign-in codes, not faces.
  const faceLike = blobs.map((t) => t.name).filter((n) => /code|descriptor|embedding/.test(n) && n !== 'face_guests' && n !== 'recovery_codes');
  assert.deepEqual(faceLike, [], 'no other table holds face codes');
  // 48 bytes from the middle of the selfie's JPEG data: any copy of it would contain them.
  const probe = selfie.subarray(selfie.length >> 1, (selfie.length >> 1) + 48);
  assert.equal(anyFileHolds(s.dataDir, probe), undefined);
});

test('a photo approved later is found, and a hidden photo is never listed', async () => {
  const copy = await sharp(GROUP_PHOTOS[0]).resize(1600).jpeg({ quality: 85 }).toBuffer();
  const later = await uploadVisible(uploader, admin, copy, 'later.jpg', false);
  const waiting = await anna.get('/api/faces/me');
  assert.ok(!waiting.body.matches.some((m: any) => m.id === later), 'hidden: not compared, not listed');
  await admin.post(`/admin/api/photos/${later}/approve`);
  const found = await searchDone(anna, (b) => b.matches.some((m: any) => m.id === later));
  assert.equal(found.total, 7);
  await admin.post(`/admin/api/photos/${photoIds[0]}/hide`);
  const hidden = await anna.get('/api/faces/me');
  assert.ok(!hidden.body.matches.some((m: any) => m.id === photoIds[0]), 'a hidden photo disappears from the matches');
  assert.ok(hidden.body.matches.some((m: any) => m.id === later));
  await admin.post(`/admin/api/photos/${photoIds[0]}/approve`);
  await admin.del(`/admin/api/photos/${later}/delete`);
  const after = await anna.get('/api/faces/me');
  assert.deepEqual(after.body.matches.map((m: any) => m.id), [photoIds[0]]);
});

test('"Forget me" deletes the guest\'s code and matches at once; another guest is untouched', async () => {
  const other = await sendSelfie(ben, await selfieFrom(GROUP_PHOTOS[4], { x: 0.2, y: 0.25, width: 0.09, height: 0.16 }, SELFIE_LOOKS[2]), 'true');
  assert.ok(other.status === 200 || other.body.code === 'no_face', JSON.stringify(other.body));
  const code = s.ctx.sqlite.prepare('SELECT code FROM face_guests WHERE guest_id = ?').get(anna.cookieHeader().match(/wedding_guest=([^;]+)/)![1]) as { code: Buffer };
  const r = await anna.del('/api/faces/me');
  assert.equal(r.status, 200);
  assert.equal((await anna.get('/api/faces/me')).status, 404);
  assert.equal(faceRows(s, 'face_guests'), other.status === 200 ? 1 : 0);
  const left = s.ctx.sqlite.prepare('SELECT count(*) AS n FROM face_matches m JOIN face_guests g USING (guest_id)').get() as { n: number };
  assert.equal(left.n, faceRows(s, 'face_matches'), 'no match without its guest');
  // Once the WAL is written back, the code's bytes are nowhere in the database files.
  s.writable().exec('PRAGMA wal_checkpoint(TRUNCATE)');
  assert.equal(anyFileHolds(s.dataDir, Buffer.from(code.code)), undefined);
});

test('a backup taken while guests use the search holds no face code, match or box', async () => {
  assert.equal((await sendSelfie(anna, selfie, 'true')).status, 200);
  await searchDone(anna);
  const guestId = anna.cookieHeader().match(/wedding_guest=([^;]+)/)![1];
  const { code } = s.ctx.sqlite.prepare('SELECT code FROM face_guests WHERE guest_id = ?').get(guestId) as { code: Buffer };
  assert.ok(faceRows(s, 'face_matches') > 0 && faceRows(s, 'face_boxes') > 0);
  const archive = path.join(tempDir('faces-backup-'), 'backup.tar.gz');
  await createBackup({ dataDir: s.dataDir, archive });
  const out = tempDir('faces-untar-');
  assert.equal(spawnSync('tar', ['xzf', archive, '-C', out]).status, 0);
  const db = openDatabase(path.join(out, 'wedding.db'), { readonly: true, fileMustExist: true });
  try {
    for (const t of ['face_guests', 'face_matches', 'face_boxes']) assert.equal((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n, 0, t);
    assert.ok((db.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n >= 6, 'the photos are there');
  } finally {
    db.close();
  }
  assert.equal(anyFileHolds(out, Buffer.from(code)), undefined, "the code's bytes are in no file of the backup");
  assert.equal(faceRows(s, 'face_guests'), 1, 'the live site keeps it');
});

test('turning it off deletes every face code and match and answers face_search_off again', async () => {
  await sendSelfie(anna, selfie, 'true');
  await searchDone(anna);
  assert.ok(faceRows(s, 'face_matches') > 0);
  const r = await turn(false);
  assert.equal(r.body.settings.face_search_until, null);
  assert.deepEqual([faceRows(s, 'face_guests'), faceRows(s, 'face_matches'), faceRows(s, 'face_boxes')], [0, 0, 0]);
  assert.equal((await anna.get('/api/faces/me')).body.code, 'face_search_off');
  assert.equal(s.services.faces.scanner.progress('anything'), undefined);
  assert.deepEqual(faceWorkerProcesses(), [], 'the face workers stopped');
});

test('"Delete all face data now" is for admins only and leaves no code, match or box', async () => {
  await turn(true);
  assert.equal((await sendSelfie(anna, selfie, 'true')).status, 200);
  const family = await userClient(s.url, admin, 'family');
  assert.equal((await family.del('/admin/api/faces')).status, 403);
  assert.equal((await family.get('/admin/api/faces')).body.faces.guests >= 1, true);
  const r = await admin.del('/admin/api/faces');
  assert.equal(r.status, 200);
  assert.deepEqual([faceRows(s, 'face_guests'), faceRows(s, 'face_matches'), faceRows(s, 'face_boxes')], [0, 0, 0]);
  assert.equal(r.body.faces.guests, 0);
  assert.equal((await anna.get('/api/faces/me')).status, 404);
});

test('at its end date the search turns itself off and deletes everything', async () => {
  assert.equal((await sendSelfie(anna, selfie, 'true')).status, 200);
  assert.equal(faceRows(s, 'face_guests'), 1);
  const soon = new Date(Date.now() + 1500).toISOString();
  assert.equal((await admin.put('/admin/api/settings', { face_search_until: soon })).status, 200);
  await waitFor('the end', async () => !(await anna.get('/api/settings')).body.settings.face_search && faceRows(s, 'face_guests') === 0, 120_000);
  assert.deepEqual([faceRows(s, 'face_guests'), faceRows(s, 'face_matches'), faceRows(s, 'face_boxes')], [0, 0, 0]);
  assert.equal((await anna.get('/api/faces/me')).body.code, 'face_search_off');
});
