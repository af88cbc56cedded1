// The off-site copy against a real S3-compatible server on loopback (s3rver) behind a proxy that
// can fail: every original byte for byte, derivatives and a database copy; a bucket that is away
// then back; deletions that follow and hiding that does not; the settings' rights and words.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { BUCKET, startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { httpReceiver } from '../helpers/receivers.js';
import { sample } from '../helpers/samples.js';
import { adminClient, startTestServer, tempDir, userClient, type TestClient, type TestServer } from '../helpers/server.js';
import { chunkedUpload, sha256, uploadFile, waitForStatus } from '../helpers/uploads.js';

/** Looks often, backs off at most a second, copies the database every second while it changes. */
const FAST = { offsitePollMs: 100, offsiteMaxBackoffMs: 1000, offsiteDbCopyEveryMs: 1000 };
let bucket: TestBucket;
let s: TestServer;
let admin: TestClient;
/** What was sent, by photo id. */
const sent = new Map<string, Buffer>();

const unique = (name: string, extra = 2000) => Buffer.concat([fs.readFileSync(sample(name)), crypto.randomBytes(extra)]);

async function status(): Promise<any> {
  const r = await admin.json('GET', '/admin/api/offsite');
  assert.equal(r.status, 200);
  return r.body;
}

async function allCopied(min: number): Promise<void> {
  await until(async () => {
    const st = await status();
    return st.files_total >= min && st.files_copied === st.files_total && st.state === 'ok';
  }, `every file copied (${JSON.stringify(await status())})`);
}

async function photoRow(id: string) {
  return s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function upload(name: string): Promise<string> {
  const data = unique(name);
  const r = await uploadFile(s.url, data, name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = r.body.photo_id as string;
  sent.set(id, data);
  assert.equal(await waitForStatus(s.url, id), 'complete');
  return id;
}

before(async () => {
  bucket = await startBucket({ prefix: 'our-wedding' });
  s = await startTestServer(bucket.env, tempDir(), FAST);
  admin = await adminClient(s.url);
});
after(async () => {
  await s?.close();
  await bucket?.close();
});

test('every original byte for byte, its derivatives and a database copy reach the bucket; the answer never waited for it', async () => {
  const a = await upload('Canon_40D.jpg');
  const b = await upload('Nikon_D70.jpg');
  // Larger than one request's worth: copied in parts.
  const big = unique('hdr_iphone_hdr_YES.jpg', 18 * 1024 * 1024);
  const r = await chunkedUpload(s.url, big, { chunkSize: 4 * 1024 * 1024, filename: 'long-exposure.jpg' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  sent.set(r.body.photo_id, big);
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');

  await allCopied(9);
  for (const [id, data] of sent) {
    const row = await photoRow(id);
    const key = `our-wedding/${row.stored_path}`;
    assert.equal(await bucket.sha256(key), sha256(data), `${row.original_filename}: the bucket holds the bytes sent`);
    const head = await bucket.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    assert.equal(head.Metadata?.sha256, sha256(data), 'the SHA-256 is kept with the object');
    for (const rel of [row.thumb_path, row.display_path]) {
      assert.ok(rel);
      assert.deepEqual(await bucket.bytes(`our-wedding/${rel}`), fs.readFileSync(path.join(s.dataDir, rel)), `${rel} copied`);
    }
  }
  // The big one went in parts, each confirmed by its MD5.
  const bigRow = await photoRow(r.body.photo_id);
  const parts = bucket.requests.filter((q) => q.key === `our-wedding/${bigRow.stored_path}` && q.query.includes('partNumber'));
  assert.ok(parts.length >= 3, `${parts.length} parts`);

  // Nothing was copied twice.
  const puts = bucket.requests.filter((q) => q.method === 'PUT' && q.status === 200 && !q.query.includes('partNumber') && !q.key.includes('/database/'));
  const perKey = new Map<string, number>();
  for (const p of puts) perKey.set(p.key, (perKey.get(p.key) ?? 0) + 1);
  assert.deepEqual([...perKey].filter(([, n]) => n > 1), [], 'each object put once');

  // A database copy: a gzip-compressed SQLite file that holds the photos.
  // A database copy, a gzip-compressed SQLite file, soon holds the photos (at most one interval behind).
  const holds = async (): Promise<boolean> => {
    const keys = (await bucket.keys('our-wedding/database/')).sort();
    if (!keys.length) return false;
    const dbKey = keys[keys.length - 1];
    assert.match(dbKey, /^our-wedding\/database\/wedding-\d{8}T\d{6}\d{3}Z\.db\.gz$/);
    const file = path.join(tempDir(), 'copy.db');
    fs.writeFileSync(file, zlib.gunzipSync(await bucket.bytes(dbKey)));
    const copy = new Database(file, { readonly: true });
    try {
      assert.equal((copy.prepare('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check, 'ok');
      const ids = (copy.prepare('SELECT id FROM photos').all() as { id: string }[]).map((x) => x.id);
      return [a, b, r.body.photo_id].every((id) => ids.includes(id));
    } finally {
      copy.close();
    }
  };
  await until(holds, 'a database copy that holds the photos');
  const st = await status();
  assert.ok(st.database?.last_copy_at, 'the status says when the database was copied');
  assert.ok(st.bytes_copied > big.length);
});

test('a bucket that answers 503, then refuses connections, then comes back: everything is copied, nothing twice', async () => {
  await allCopied(1);
  bucket.mode = '503';
  const before = bucket.requests.length;
  const id = await upload('Canon_40D.jpg');
  await until(async () => (await status()).state === 'failing', 'state failing after three tries');
  const failing = await status();
  assert.equal(failing.last_error.code, 'bucket_error');
  assert.equal(failing.last_error.message, 'The storage service reported a problem on its side. The copy tries again by itself.');
  assert.ok(failing.files_copied < failing.files_total);
  bucket.mode = 'refuse';
  await until(async () => (await status()).last_error?.code === 'unreachable', 'the error says unreachable');
  // The upload's answer never waited, and the guest's photo is stored.
  assert.equal((await photoRow(id)).status, 'complete');
  bucket.mode = 'pass';
  await allCopied(1);
  const row = await photoRow(id);
  assert.equal(await bucket.sha256(`our-wedding/${row.stored_path}`), sha256(sent.get(id)!));
  const okPuts = bucket.requests.slice(before).filter((q) => q.method === 'PUT' && q.status === 200 && q.key === `our-wedding/${row.stored_path}`);
  assert.equal(okPuts.length, 1, 'the original was put once, after the bucket came back');
  assert.equal((await status()).last_error, null, 'the error clears once copying works again');
});

test('a deleted photo leaves the bucket within a minute; a hidden one stays', async () => {
  const keep = await upload('Nikon_D70.jpg');
  const gone = await upload('Canon_40D.jpg');
  await allCopied(2);
  const keepRow = await photoRow(keep);
  const goneRow = await photoRow(gone);
  assert.equal((await admin.json('POST', `/admin/api/photos/${keep}/toggle-visibility`)).status, 200);
  assert.equal((await admin.json('DELETE', `/admin/api/photos/${gone}/delete`)).status, 200);
  const t0 = Date.now();
  await until(async () => !(await bucket.keys('our-wedding/')).some((k) => k.includes(gone)) && !(await bucket.keys('our-wedding/')).includes(`our-wedding/${goneRow.stored_path}`), 'the deleted photo gone from the bucket', 60_000);
  assert.ok(Date.now() - t0 < 60_000);
  const keys = await bucket.keys('our-wedding/');
  assert.ok(keys.includes(`our-wedding/${keepRow.stored_path}`), 'hiding is not deleting');
  assert.ok(keys.includes(`our-wedding/${keepRow.thumb_path}`));
});

test('the settings: admins only, the secret never sent back, environment wins, and the words for what is wrong', async () => {
  const family = await userClient(s.url, admin, 'family');
  const seen = await family.json('GET', '/admin/api/offsite');
  assert.equal(seen.status, 200, 'any signed-in user sees the status');
  assert.equal(seen.body.configured, true);
  assert.equal(seen.body.settings, undefined, 'but not the settings');
  assert.equal((await family.json('PUT', '/admin/api/offsite', { bucket: 'other' })).status, 403);
  assert.equal((await family.json('POST', '/admin/api/offsite/test', {})).status, 403);
  assert.equal((await new (admin.constructor as typeof TestClient)(s.url).json('GET', '/admin/api/offsite')).status, 401);

  const mine = await admin.json('GET', '/admin/api/offsite');
  assert.equal(mine.body.settings.bucket, 'wedding-offsite');
  assert.equal(mine.body.settings.has_secret, true);
  assert.ok(mine.body.settings.from_env.includes('bucket'));
  assert.ok(!JSON.stringify(mine.body).includes('test-secret-never-shown'), 'the secret is never sent back');

  const ok = await admin.json('POST', '/admin/api/offsite/test', {});
  assert.deepEqual(ok.body, { success: true, ok: true });
  assert.ok(!(await bucket.keys('our-wedding/offsite-test/')).length, 'the test object is deleted again');

  // Environment wins over the page; here the form is tried, not saved.
  const noBucket = await admin.json('POST', '/admin/api/offsite/test', { bucket: 'no-such-bucket' });
  assert.equal(noBucket.body.ok, true, 'the environment fixes the bucket here, the form cannot change it');
  const bad = await admin.json('PUT', '/admin/api/offsite', { endpoint: 'ftp://x', bucket: 'A_B' });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.problems, [
    'The endpoint must be an address starting with https:// or http://.',
    'A bucket name has 3 to 63 lowercase letters, digits, dots or hyphens, and starts and ends with a letter or digit.',
  ]);
});

test('"Test connection" on a site set up by the page: a missing bucket and an unreachable endpoint in words; saved settings keep their secret', async () => {
  const other = await startTestServer({}, tempDir(), FAST);
  try {
    const a = await adminClient(other.url);
    const off = await a.json('GET', '/admin/api/offsite');
    assert.equal(off.body.state, 'off');
    assert.equal(off.body.configured, false);
    const form = { endpoint: bucket.direct, region: 'us-east-1', bucket: 'no-such-bucket', access_key_id: 'S3RVER', secret_access_key: 'S3RVER-secret' };
    const missing = await a.json('POST', '/admin/api/offsite/test', form);
    assert.equal(missing.body.ok, false);
    assert.equal(missing.body.problem, 'no_such_bucket');
    assert.equal(missing.body.message, 'There is no bucket named “no-such-bucket” at this address. Check its name and the region.');
    // A port where nothing listens: one just closed.
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closed = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const away = await a.json('POST', '/admin/api/offsite/test', { ...form, endpoint: `http://127.0.0.1:${closed}`, bucket: 'wedding-offsite' });
    assert.equal(away.body.problem, 'unreachable');
    assert.equal(away.body.message, "The bucket's address cannot be reached. Check the endpoint, and that this server is online.");
    const incomplete = await a.json('POST', '/admin/api/offsite/test', { bucket: 'wedding-offsite' });
    assert.equal(incomplete.body.message, 'Fill in the endpoint, the bucket, the key ID and the secret key first.');

    const saved = await a.json('PUT', '/admin/api/offsite', { ...form, bucket: 'wedding-offsite', prefix: '/second-site/' });
    assert.equal(saved.status, 200);
    assert.equal(saved.body.settings.prefix, 'second-site/');
    assert.ok(!JSON.stringify(saved.body).includes('S3RVER-secret'));
    // Saved again without the secret: the one saved stays.
    assert.equal((await a.json('PUT', '/admin/api/offsite', { serve: false, secret_access_key: '' })).status, 200);
    assert.deepEqual((await a.json('POST', '/admin/api/offsite/test', {})).body, { success: true, ok: true });
    await until(async () => (await a.json('GET', '/admin/api/offsite')).body.state === 'ok', 'the page-made settings copy');
  } finally {
    await other.close();
  }
});

test('a photo the copy has not looked at yet keeps it "behind", not "ok"', async () => {
  // The copy looks for changes once a minute here: the new photo waits unseen meanwhile.
  const slow = await startTestServer(bucket.env, tempDir(), { ...FAST, offsitePollMs: 60_000 });
  try {
    const a = await adminClient(slow.url);
    const state = async () => (await a.json('GET', '/admin/api/offsite')).body;
    await until(async () => (await state()).state === 'ok', 'the first look at an empty site');
    const up = await uploadFile(slow.url, unique('Canon_40D.jpg'), 'unseen.jpg');
    assert.equal(up.status, 201);
    assert.equal(await waitForStatus(slow.url, up.body.photo_id), 'complete');
    const before = await state();
    assert.equal(before.files_total, before.files_copied, 'no row for it yet');
    assert.equal(before.state, 'behind');
    slow.services.offsite.copier.wake();
    await until(async () => {
      const st = await state();
      return st.state === 'ok' && st.files_total > 0 && st.files_copied === st.files_total;
    }, 'copied once looked at');
  } finally {
    await slow.close();
  }
});

test('without a bucket nothing changes: every write that notes a change for the copy succeeds again and again', async () => {
  const plain = await startTestServer({}, tempDir(), FAST);
  try {
    const a = await adminClient(plain.url);
    for (const names of [['Anna', 'Ben'], ['Anna', 'Benjamin']]) {
      const r = await a.json('PUT', '/admin/api/settings', { couple_names: names });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const data = unique('Canon_40D.jpg');
    const up = await uploadFile(plain.url, data, 'toast.jpg');
    assert.equal(up.status, 201);
    assert.equal(await waitForStatus(plain.url, up.body.photo_id), 'complete', 'processing updates the photo after its insert');
    for (let i = 0; i < 2; i++) assert.equal((await a.json('POST', `/admin/api/photos/${up.body.photo_id}/rotate`, { degrees: 90 })).status, 200);
    const notes = plain.ctx.sqlite.prepare('SELECT COUNT(*) n FROM offsite_dirty').get() as { n: number };
    assert.ok(notes.n <= 2, `one note per thing changed (${notes.n})`);
  } finally {
    await plain.close();
  }
});

test('copying that has failed for 15 minutes is told to the notification channels once, with the problem in words', async () => {
  const hook = await httpReceiver();
  let skew = 0;
  const failing = await startBucket();
  failing.mode = '503';
  const site = await startTestServer(failing.env, tempDir(), { ...FAST, offsiteNow: () => Date.now() + skew });
  try {
    const a = await adminClient(site.url);
    assert.equal((await a.json('PUT', '/admin/api/settings', { notify: { webhook_url: `${hook.url}/hook` } })).status, 200);
    const up = await uploadFile(site.url, unique('Nikon_D70.jpg'), 'speech.jpg');
    assert.equal(up.status, 201);
    await until(async () => (await a.json('GET', '/admin/api/offsite')).body.state === 'failing', 'failing');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(hook.got.filter((g) => g.body.includes('offsite_failing')).length, 0, 'not told before 15 minutes');
    skew = 16 * 60_000;
    await until(() => hook.got.some((g) => g.body.includes('offsite_failing')), 'the channels told');
    const told = JSON.parse(hook.got.find((g) => g.body.includes('offsite_failing'))!.body);
    assert.match(told.text, /For 15 minutes no photo could be copied to your bucket\. The storage service reported a problem on its side\./);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(hook.got.filter((g) => g.body.includes('offsite_failing')).length, 1, 'told once while it keeps failing');
  } finally {
    await site.close();
    await failing.close();
    await hook.close();
  }
});
