// The dashboard's off-site line: GET /admin/api/dashboard carries the copy's status for every
// signed-in role once a bucket is set up (so the page stays one request), its problem in the
// reader's language; without a bucket there is no such field.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { translate } from '../../server/i18n/messages.js';
import { startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { sample } from '../helpers/samples.js';
import { adminClient, startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';

let bucket: TestBucket;
let s: TestServer;
let admin: TestClient;
let family: TestClient;

before(async () => {
  bucket = await startBucket();
  s = await startTestServer(bucket.env, tempDir(), { offsitePollMs: 100, offsiteMaxBackoffMs: 500, offsiteDbCopyEveryMs: 500 });
  admin = await adminClient(s.url);
  family = await userClient(s.url, admin, 'family');
});
after(async () => {
  await s?.close();
  await bucket?.close();
});

const dashboardOf = async (c: TestClient, lang = 'en') => {
  const r = await c.json('GET', '/admin/api/dashboard', undefined, { 'accept-language': lang });
  assert.equal(r.status, 200);
  return r.body;
};

test('family reads the copy on the dashboard: files copied of all, the database copy; the same as GET /admin/api/offsite', async () => {
  const up = await uploadFile(s.url, fs.readFileSync(sample('Canon_40D.jpg')), 'Canon_40D.jpg');
  assert.equal(up.status, 201, JSON.stringify(up.body));
  assert.equal(await waitForStatus(s.url, up.body.photo_id), 'complete');
  await until(async () => {
    const o = (await dashboardOf(family)).offsite;
    return o?.state === 'ok' && o.files_total >= 2 && o.database?.last_copy_at != null;
  }, 'every file and the database copied');
  const { offsite } = await dashboardOf(family);
  assert.equal(offsite.configured, true);
  assert.equal(offsite.files_copied, offsite.files_total);
  assert.ok(offsite.bytes_total > 0);
  assert.equal(offsite.last_error, null);
  assert.ok(Date.now() - Date.parse(offsite.database.last_copy_at) < 60_000);
  const own = (await family.get('/admin/api/offsite')).body;
  assert.equal(own.settings, undefined, 'family never sees the settings');
  for (const k of ['configured', 'state', 'files_total', 'files_copied', 'bytes_total', 'bytes_copied']) assert.deepEqual(offsite[k], own[k], k);
  assert.equal(JSON.stringify(await dashboardOf(admin)).includes(bucket.env.S3_SECRET_ACCESS_KEY), false, 'no secret on the dashboard');
});

test('a failing copy: state failing with the problem in words, in the reader\'s language', async () => {
  bucket.mode = '503';
  try {
    const up = await uploadFile(s.url, Buffer.concat([fs.readFileSync(sample('Nikon_D70.jpg')), Buffer.from('another')]), 'Nikon_D70.jpg');
    assert.equal(up.status, 201, JSON.stringify(up.body));
    await until(async () => (await dashboardOf(family)).offsite?.state === 'failing', 'state failing');
    const en = (await dashboardOf(family)).offsite;
    assert.equal(en.last_error.code, 'bucket_error');
    assert.equal(en.last_error.message, 'The storage service reported a problem on its side. The copy tries again by itself.');
    const de = (await dashboardOf(family, 'de')).offsite;
    assert.equal(de.last_error.message, translate('de', 'offsite.problem.bucket_error'));
    assert.equal(de.last_error.message, 'Der Speicherdienst meldet ein Problem auf seiner Seite. Die Kopie versucht es von selbst noch einmal.');
  } finally {
    bucket.mode = 'pass';
  }
});

test('without a bucket the dashboard has no off-site field', async () => {
  const plain = await startTestServer();
  try {
    const r = await (await adminClient(plain.url)).get('/admin/api/dashboard');
    assert.equal(r.status, 200);
    assert.equal('offsite' in r.body, false);
  } finally {
    await plain.close();
  }
});
