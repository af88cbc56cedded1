import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage } from '../helpers/uploads.js';
import { guestChunked, guestUpload } from './guests-helpers.js';

// The disposable-camera game: shot_limit photos and videos per guest.
let s: TestServer;
let anna: TestClient;
let ben: TestClient;
let admin: TestClient;
let seed = 1000;
const image = () => tinyImage('png', seed++);
before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin());
  ben = new TestClient(s.url);
});
after(() => s.close());

const photoCount = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;
const incoming = () => fs.readdirSync(s.ctx.paths.incoming).filter((f) => !f.startsWith('.'));
const partials = () => (s.ctx.sqlite.prepare("SELECT count(*) AS n FROM uploads WHERE status = 'receiving'").get() as { n: number }).n;

test('settings: shot_limit is null by default, 1-100 or null when set; anything else is 400 with a sentence naming the field', async () => {
  const r = await admin.get('/admin/api/settings');
  assert.equal(r.body.settings.shot_limit, null);
  for (const bad of [0, 101, 2.5, '7', true, -1]) {
    const put = await admin.put('/admin/api/settings', { shot_limit: bad });
    assert.equal(put.status, 400, `shot_limit ${JSON.stringify(bad)}`);
    assert.equal(put.body.code, 'invalid_input');
    assert.equal(put.body.error, 'shot_limit must be a whole number from 1 to 100, or null for no limit.');
  }
  assert.equal((await admin.put('/admin/api/settings', { shot_limit: 100 })).body.settings.shot_limit, 100);
  assert.equal((await admin.put('/admin/api/settings', { shot_limit: null })).body.settings.shot_limit, null);
  const de = await admin.json('PUT', '/admin/api/settings', { shot_limit: 0 }, { 'accept-language': 'de' });
  assert.equal(de.body.error, 'shot_limit muss eine ganze Zahl von 1 bis 100 sein oder null für keine Grenze.');
});

test('without a limit GET /api/my/shots answers nulls and uploads are not counted', async () => {
  const r = await anna.get('/api/my/shots');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { success: true, shot_limit: null, shots_left: null });
  assert.equal((await guestUpload(anna, await image(), 'before-limit.png')).status, 201);
});

test('with shot_limit 3: the guest sees shots left; the next upload is 403 shot_limit_reached and nothing is stored; another guest is not affected', async () => {
  assert.equal((await admin.put('/admin/api/settings', { shot_limit: 3 })).status, 200);
  // Anna's earlier upload counts: two shots left.
  assert.deepEqual((await anna.get('/api/my/shots')).body, { success: true, shot_limit: 3, shots_left: 2 });
  assert.equal((await guestUpload(anna, await image(), 'a2.png')).status, 201);
  // A duplicate of someone else's photo takes a shot too.
  const bens = await image();
  assert.equal((await guestUpload(ben, bens, 'ben1.png')).status, 201);
  const dup = await guestUpload(anna, bens, 'same-as-ben.png');
  assert.equal(dup.status, 200);
  assert.equal(dup.body.duplicate, true);
  assert.equal((await anna.get('/api/my/shots')).body.shots_left, 0);

  const before = photoCount();
  const owners = (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photo_owners').get() as { n: number }).n;
  const refused = await guestUpload(anna, await image(), 'one-too-many.png');
  assert.equal(refused.status, 403);
  assert.equal(refused.body.success, false);
  assert.equal(refused.body.code, 'shot_limit_reached');
  assert.match(refused.body.error, /Your camera is full/);
  // A duplicate is refused as well, and a chunked upload does not even start.
  const ownDup = await guestUpload(anna, await tinyImage('png', 1), 'dup-of-nothing.png');
  assert.equal(ownDup.status, 403);
  const chunked = await guestChunked(anna, await tinyImage('jpeg', seed++, 300, 200), 'big.jpg', 400, []);
  assert.equal(chunked.status, 403);
  assert.equal(chunked.body.code, 'shot_limit_reached');
  assert.equal(photoCount(), before, 'nothing stored');
  assert.equal((s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photo_owners').get() as { n: number }).n, owners);
  assert.equal(partials(), 0, 'no partial upload kept');
  assert.deepEqual(incoming(), [], 'no received file kept');

  // Ben has two shots left of his own.
  assert.deepEqual((await ben.get('/api/my/shots')).body, { success: true, shot_limit: 3, shots_left: 2 });
  assert.equal((await guestUpload(ben, await image(), 'ben2.png')).status, 201);
});

test('sending again bytes the guest already owns (an answer that was lost) is not refused at the limit', async () => {
  const mine = (await anna.get('/api/my/uploads')).body.photos.find((p: any) => p.original_filename === 'a2.png');
  assert.ok(mine);
  const again = await guestUpload(anna, fs.readFileSync(path.join(s.ctx.config.dataDir, (s.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(mine.id) as { stored_path: string }).stored_path)), 'a2.png');
  assert.equal(again.status, 200);
  assert.equal(again.body.photo_id, mine.id);
  assert.equal((await anna.get('/api/my/shots')).body.shots_left, 0);
});

test('a photo taken back gives its shot back; an admin delete too', async () => {
  const list = (await anna.get('/api/my/uploads')).body.photos;
  const first = list.find((p: any) => p.original_filename === 'a2.png');
  assert.equal((await anna.del(`/api/my/uploads/${first.id}`)).status, 200);
  assert.equal((await anna.get('/api/my/shots')).body.shots_left, 1);
  const r = await guestUpload(anna, await image(), 'after-take-back.png');
  assert.equal(r.status, 201);
  assert.equal((await guestUpload(anna, await image(), 'no.png')).status, 403);
  assert.equal((await admin.del(`/admin/api/photos/${r.body.photo_id}/delete`)).status, 200);
  assert.equal((await anna.get('/api/my/shots')).body.shots_left, 1);
  assert.equal((await guestUpload(anna, await image(), 'after-admin-delete.png')).status, 201);
});

test('two uploads at once for the last shot: exactly one is stored', async () => {
  const carl = new TestClient(s.url);
  assert.equal((await guestUpload(carl, await image(), 'c1.png')).status, 201);
  assert.equal((await guestUpload(carl, await image(), 'c2.png')).status, 201);
  const [x, y, z] = await Promise.all([guestUpload(carl, await image(), 'c3.png'), guestUpload(carl, await image(), 'c4.png'), guestUpload(carl, await image(), 'c5.png')]);
  assert.deepEqual([x.status, y.status, z.status].sort(), [201, 403, 403]);
  assert.equal((await carl.get('/api/my/shots')).body.shots_left, 0);
});

test('signed-in users are not limited', async () => {
  for (let i = 0; i < 5; i++) assert.equal((await guestUpload(admin, await image(), `admin-${i}.png`)).status, 201);
  const chunked = await guestChunked(admin, await tinyImage('jpeg', seed++, 300, 200), 'admin-big.jpg', 400, []);
  assert.equal(chunked.status, 201);
  assert.deepEqual((await admin.get('/api/my/shots')).body, { success: true, shot_limit: 3, shots_left: null });
});
