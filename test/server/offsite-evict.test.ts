// The local disk as a cache of the couple's bucket (S3_KEEP_LOCAL=derivatives), against a real
// S3-compatible server (s3rver) behind a proxy that can fail: originals leave the disk only once
// the bucket confirmed them; the ZIP export, downloads, rotate, regenerate and backups fetch them
// back byte for byte; a bucket that is away is a 503 in words and loses nothing; a disk that runs
// short (STORAGE_LIMIT_GB) makes room by itself.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createBackup } from '../../server/backup/create.js';
import { restoreBackup } from '../../server/backup/restore.js';
import { originalsFromBucket } from '../../server/offsite/bucket-originals.js';
import { offsiteFromEnv } from '../../server/offsite/offsite.config.js';
import { startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { sample } from '../helpers/samples.js';
import { adminClient, startTestServer, tempDir, TestClient, type TestServer } from '../helpers/server.js';
import { sha256, uploadFile, waitForStatus } from '../helpers/uploads.js';
import { run, saveBody } from './export-fixtures.js';

/**
 * Looks often and backs off at most a second; the disk is looked at for room every 200 ms; an
 * original just read may leave at once (each test then evicts only what it uploaded and read).
 */
const FAST = { offsitePollMs: 100, offsiteMaxBackoffMs: 1000, offsiteDbCopyEveryMs: 60_000, offsiteEvictEveryMs: 200, offsiteHoldMs: 0 };
const PREFIX = 'cache-test';
let bucket: TestBucket;
let s: TestServer;
let admin: TestClient;
let dataDir: string;
let env: Record<string, string>;
/** What was sent, by photo id. */
const sent = new Map<string, Buffer>();
const work = tempDir('offsite-evict-');

const unique = (name: string) => Buffer.concat([fs.readFileSync(sample(name)), crypto.randomBytes(3000)]);

async function status(): Promise<any> {
  return (await admin.get('/admin/api/offsite')).body;
}

async function allCopied(): Promise<void> {
  await until(async () => {
    const st = await status();
    return st.files_total > 0 && st.files_copied === st.files_total && st.state === 'ok';
  }, `every file copied (${JSON.stringify(await status())})`);
}

const photoRow = (id: string) => s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const objectRow = (rel: string) => s.ctx.db.selectFrom('offsite_objects').selectAll().where('rel', '=', rel).executeTakeFirst();
const localFile = async (id: string) => path.join(dataDir, (await photoRow(id)).stored_path);

async function upload(name: string): Promise<string> {
  const data = unique(name);
  const r = await uploadFile(s.url, data, name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  const id = r.body.photo_id as string;
  sent.set(id, data);
  assert.equal(await waitForStatus(s.url, id), 'complete');
  assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  return id;
}

/** Uploads, waits until the bucket holds everything, then evicts: these photos' originals leave the disk. */
async function evicted(names: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const n of names) ids.push(await upload(n));
  await allCopied();
  await s.services.offsite.evictNow();
  for (const id of ids) {
    assert.equal(fs.existsSync(await localFile(id)), false, `the original of ${id} left the disk`);
    assert.equal((await objectRow((await photoRow(id)).stored_path))?.evicted, 1);
  }
  return ids;
}

const puts = (key: string) => bucket.requests.filter((q) => q.method === 'PUT' && q.key === key && q.status === 200).length;

/** The admins' download of an original: a link, then the file. */
async function adminDownload(id: string, lang = 'en'): Promise<Response> {
  const link = await admin.get(`/admin/api/photos/${id}/download`);
  assert.equal(link.status, 200, JSON.stringify(link.body));
  return admin.fetch(link.body.download_url, { headers: { 'accept-language': lang } });
}

before(async () => {
  bucket = await startBucket({ prefix: PREFIX });
  dataDir = tempDir('offsite-evict-data-');
  // No free-space floor: only evictNow() and, later, STORAGE_LIMIT_GB make originals leave.
  env = { ...bucket.env, S3_KEEP_LOCAL: 'derivatives', MIN_FREE_MB: '0' };
  s = await startTestServer(env, dataDir, FAST);
  admin = await adminClient(s.url);
  assert.equal((await admin.put('/admin/api/settings', { guest_downloads: true })).status, 200);
});
after(async () => {
  await s?.close();
  await bucket?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('evicted originals come back for the ZIP export byte for byte, fetched once, checked, and stay until the next eviction', async () => {
  const ids = await evicted(['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg']);
  const usedBefore = await s.services.disk.used();
  const res = await admin.fetch('/admin/api/export.zip?scope=all');
  assert.equal(res.status, 200);
  const zip = path.join(work, 'all.zip');
  await saveBody(res, zip);
  const dir = path.join(work, 'all');
  assert.equal((await run('unzip', ['-q', zip, '-d', dir])).code, 0);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.unreadable, []);
  for (const id of ids) {
    const entry = manifest.files.find((f: any) => f.id === id);
    assert.ok(entry, `${id} is in the export`);
    assert.deepEqual(fs.readFileSync(path.join(dir, entry.name)), sent.get(id), `${entry.name}: the bytes sent`);
    assert.equal(entry.sha256, sha256(sent.get(id)!));
    // Back on the disk, recorded as local, and the copy sends nothing again.
    const row = await photoRow(id);
    assert.deepEqual(fs.readFileSync(path.join(dataDir, row.stored_path)), sent.get(id));
    assert.equal((await objectRow(row.stored_path))?.evicted, 0);
    assert.equal(puts(`${PREFIX}/${row.stored_path}`), 1, 'copied once, never again after the fetch');
  }
  assert.ok((await s.services.disk.used()) > usedBefore, 'the originals count again once they are back');
  await allCopied();
  for (const id of ids) assert.equal(puts(`${PREFIX}/${(await photoRow(id)).stored_path}`), 1);
});

test('an original is never removed before the bucket confirmed it; used space drops by what left', async () => {
  bucket.mode = '503';
  try {
    const data = unique('Panasonic_DMC-FZ30.jpg');
    const r = await uploadFile(s.url, data, 'waiting.jpg');
    assert.equal(r.status, 201);
    const id = r.body.photo_id as string;
    sent.set(id, data);
    assert.equal(await waitForStatus(s.url, id), 'complete');
    const rel = (await photoRow(id)).stored_path;
    await until(async () => (await objectRow(rel)) !== undefined, 'the copy knows the new original');
    await s.services.offsite.evictNow();
    assert.deepEqual(fs.readFileSync(path.join(dataDir, rel)), data, 'still on the disk: the bucket has not confirmed it');
    assert.equal((await objectRow(rel))?.evicted, 0);
  } finally {
    bucket.mode = 'pass';
  }
  const id = await upload('mobile_jolla.jpg');
  await allCopied();
  const before = await s.services.disk.used();
  const local = await s.ctx.db.selectFrom('offsite_objects').select('rel').where('evicted', '=', 0).execute();
  const result = await s.services.offsite.evictNow();
  assert.equal(fs.existsSync(await localFile(id)), false);
  const left = await s.ctx.db
    .selectFrom('offsite_objects as o')
    .innerJoin('photos as p', 'p.stored_path', 'o.rel')
    .select('p.file_size')
    .where('o.evicted', '=', 1)
    .where('o.rel', 'in', local.map((r) => r.rel))
    .execute();
  assert.equal(result.files, left.length);
  assert.ok(left.length >= 2, 'the one the bucket now holds, and the ones before');
  const bytes = left.reduce((n, r) => n + r.file_size, 0);
  assert.equal(result.bytes, bytes);
  assert.equal(await s.services.disk.used(), before - bytes, 'stored media on this disk no longer count the evicted originals');
});

test('downloads, rotate and regenerate after eviction fetch the original back; a bucket that is away is a 503 in words and loses nothing', async () => {
  const [a, b, c] = await evicted(['Canon_40D.jpg', 'Nikon_D70.jpg', 'xmp_no_exif.jpg']);
  const guest = new TestClient(s.url);

  bucket.mode = 'refuse';
  try {
    const down = await adminDownload(a);
    assert.equal(down.status, 503);
    const body = await down.json();
    assert.equal(body.code, 'unavailable');
    assert.equal(body.error, 'This photo’s original is kept in the off-site copy, which cannot be reached right now. Nothing is lost: please try again in a few minutes.');
    assert.ok(down.headers.get('retry-after'));
    const de = await (await adminDownload(a, 'de')).json();
    assert.match(de.error, /externen Kopie/, 'in the reader’s language');
    const g = await guest.fetch(`/api/photos/${a}/download`);
    assert.equal(g.status, 503);
    const rot = await admin.post(`/admin/api/photos/${b}/rotate`, { degrees: 90 });
    assert.equal(rot.status, 503, JSON.stringify(rot.body));
    assert.equal(rot.body.code, 'unavailable');
    const regen = await admin.post(`/admin/api/photos/${c}/regenerate-thumbnail`);
    assert.equal(regen.status, 503, JSON.stringify(regen.body));
    // Refused before a byte of the archive is sent.
    const zip = await admin.fetch('/admin/api/export.zip?scope=all');
    assert.equal(zip.status, 503);
    assert.equal((await zip.json()).code, 'unavailable');
    // Nothing changed, nothing was lost: the photos as they were, the bucket still holds them.
    for (const id of [a, b, c]) {
      const row = await photoRow(id);
      assert.equal(row.status, 'complete');
      assert.equal(row.rotation, 0);
      assert.equal((await objectRow(row.stored_path))?.evicted, 1);
      assert.equal(await bucket.sha256(`${PREFIX}/${row.stored_path}`), sha256(sent.get(id)!));
    }
  } finally {
    bucket.mode = 'pass';
  }

  // The bucket answers again: each works, from the bytes sent.
  const down = await adminDownload(a);
  assert.equal(down.status, 200);
  assert.deepEqual(Buffer.from(await down.arrayBuffer()), sent.get(a));
  const g = await guest.fetch(`/api/photos/${c}/download`);
  assert.equal(g.status, 200);
  await g.arrayBuffer();

  const before = await photoRow(b);
  const rot = await admin.post(`/admin/api/photos/${b}/rotate`, { degrees: 90 });
  assert.equal(rot.status, 200, JSON.stringify(rot.body));
  const turned = await photoRow(b);
  assert.equal(turned.rotation, 90);
  assert.notEqual(turned.display_path, before.display_path, 'new derivatives from the original');
  assert.ok(fs.existsSync(path.join(dataDir, turned.stored_path)));

  const regen = await admin.post(`/admin/api/photos/${c}/regenerate-thumbnail`);
  assert.equal(regen.status, 200, JSON.stringify(regen.body));

  // The rotated original is copied again (its bytes changed); the bucket then holds what the disk holds.
  await allCopied();
  const local = fs.readFileSync(path.join(dataDir, turned.stored_path));
  assert.equal(await bucket.sha256(`${PREFIX}/${turned.stored_path}`), sha256(local));
});

test('a backup takes the originals kept only in the bucket from there', async () => {
  const ids = await evicted(['Canon_40D.jpg', 'Pentax_K10D.jpg']);
  const archive = path.join(work, 'backup.tar.gz');
  const fromBucket = originalsFromBucket(path.join(dataDir, 'wedding.db'), offsiteFromEnv(env, []));
  try {
    const { manifest } = await createBackup({ dataDir, archive, fetchOriginal: fromBucket.fetch });
    assert.deepEqual(manifest.dropped_photos, []);
  } finally {
    fromBucket.close();
  }
  // Taken from the bucket into the archive, not back onto the disk.
  for (const id of ids) assert.equal(fs.existsSync(await localFile(id)), false);
  const target = tempDir('offsite-evict-restored-');
  await restoreBackup({ archive, dataDir: target });
  for (const id of ids) assert.deepEqual(fs.readFileSync(path.join(target, (await photoRow(id)).stored_path)), sent.get(id));
});

test('a disk that runs short (STORAGE_LIMIT_GB) makes room by itself, oldest first, until comfortably below the limit', async () => {
  // Three large originals, oldest first; everything before them has left the disk already.
  const big: string[] = [];
  for (const name of ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg']) {
    const data = Buffer.concat([fs.readFileSync(sample(name)), crypto.randomBytes(3 * 1024 * 1024)]);
    const r = await uploadFile(s.url, data, `big-${name}`);
    assert.equal(r.status, 201);
    sent.set(r.body.photo_id, data);
    assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
    big.push(r.body.photo_id);
  }
  await allCopied();
  const localOriginals = () => s.ctx.db.selectFrom('offsite_objects').select('rel').where('evicted', '=', 0).where('rel', 'like', 'media/originals/%').execute();
  assert.equal((await localOriginals()).length, 3);
  const sizes = await Promise.all(big.map(async (id) => (await photoRow(id)).file_size));
  const used = await s.services.disk.used();
  // A limit that the two oldest must leave for: stored media then fall to 80 % of it.
  const need = sizes[0] + sizes[1] - 1000;
  const limit = (used - need) / 0.8;
  assert.ok(used > limit * 0.9, 'the disk is short of room under this limit');
  await s.close();
  s = await startTestServer({ ...env, STORAGE_LIMIT_GB: (limit / 1024 ** 3).toFixed(15) }, dataDir, FAST);
  admin = await adminClient(s.url);
  await until(async () => (await localOriginals()).length === 1, 'the two oldest originals left the disk');
  // Comfortably below: nothing more leaves.
  await new Promise((r) => setTimeout(r, 1000));
  assert.deepEqual(
    (await localOriginals()).map((r) => r.rel),
    [(await photoRow(big[2])).stored_path],
    'the newest stays',
  );
  for (const id of big.slice(0, 2)) {
    const row = await photoRow(id);
    assert.equal(fs.existsSync(path.join(dataDir, row.stored_path)), false);
    // Not a deletion: the bucket keeps them, and the gallery's copies stay on the disk.
    assert.equal(await bucket.sha256(`${PREFIX}/${row.stored_path}`), sha256(sent.get(id)!));
    assert.ok(row.thumb_path && fs.existsSync(path.join(dataDir, row.thumb_path)));
  }
  assert.ok((await s.services.disk.used()) <= limit * 0.8);
  // And a download still gets the bytes sent.
  const down = await adminDownload(big[0]);
  assert.equal(down.status, 200);
  assert.deepEqual(Buffer.from(await down.arrayBuffer()), sent.get(big[0]));
});
