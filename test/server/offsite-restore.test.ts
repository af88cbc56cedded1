// Restore onto a new machine from the couple's bucket (`restore --from-bucket`), against a real
// S3-compatible server (s3rver): a site copied there is rebuilt in an empty folder from the newest
// database copy and the objects, and starts with the same photos (bytes), accounts, settings and
// guestbook; a folder that holds a site is refused; a missing object is named and exits non-zero.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import Database from 'better-sqlite3';
import { RestoreError } from '../../server/backup/restore.js';
import { effectiveSettings, offsiteFromEnv } from '../../server/offsite/offsite.config.js';
import { restoreFromBucket } from '../../server/offsite/restore-from-bucket.js';
import { BUCKET, startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { makeAudio, postMessage } from '../helpers/guestbook.js';
import { sample } from '../helpers/samples.js';
import { adminClient, startTestServer, tempDir, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { sha256, uploadFile, waitForStatus } from '../helpers/uploads.js';
import { ROOT } from './backup-helpers.js';

const FAST = { offsitePollMs: 100, offsiteMaxBackoffMs: 1000, offsiteDbCopyEveryMs: 60_000 };
const PREFIX = 'moved-site';
let bucket: TestBucket;
let source: string;
/** The site as it was in the bucket: rows, and the originals' bytes by stored path. */
const was = {
  photos: [] as any[],
  users: [] as any[],
  settings: '' as string,
  guestbook: [] as any[],
  originals: new Map<string, Buffer>(),
};

const settings = () => effectiveSettings(offsiteFromEnv(bucket.env, []), {});

/** Every change looked at (nothing left in offsite_dirty) and every file copied. */
async function allCopied(s: TestServer, admin: TestClient): Promise<void> {
  await until(async () => {
    const dirty = await s.ctx.db.selectFrom('offsite_dirty').select('owner').executeTakeFirst();
    const st = (await admin.get('/admin/api/offsite')).body;
    return !dirty && st.files_total > 0 && st.files_copied === st.files_total && st.state === 'ok';
  }, 'every file copied');
}

function rowsOf(dataDir: string) {
  const db = new Database(path.join(dataDir, 'wedding.db'), { readonly: true });
  try {
    return {
      photos: db.prepare('SELECT id, stored_path, sha256, rotation, is_visible, original_filename, thumb_path, display_path FROM photos ORDER BY id').all() as any[],
      users: db.prepare('SELECT id, username, role, password_hash FROM users ORDER BY id').all() as any[],
      settings: (db.prepare('SELECT data FROM settings').get() as { data: string }).data,
      guestbook: db.prepare('SELECT id, name, message, audio_path, audio_sha256, is_visible FROM guestbook ORDER BY id').all() as any[],
    };
  } finally {
    db.close();
  }
}

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/restore.js'), ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

before(async () => {
  bucket = await startBucket({ prefix: PREFIX });
  source = tempDir('restore-source-');
  const s = await startTestServer(bucket.env, source, FAST);
  try {
    const admin = await adminClient(s.url);
    for (const name of ['Canon_40D.jpg', 'Nikon_D70.jpg', 'hdr_iphone_hdr_YES.jpg']) {
      const data = Buffer.concat([fs.readFileSync(sample(name)), crypto.randomBytes(2000)]);
      const r = await uploadFile(s.url, data, name);
      assert.equal(r.status, 201);
      assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
      assert.equal((await admin.post(`/admin/api/photos/${r.body.photo_id}/approve`)).status, 200);
    }
    // A rotated photo: its original's bytes differ from the SHA-256 recorded at upload.
    const first = (await s.ctx.db.selectFrom('photos').select('id').orderBy('upload_timestamp').executeTakeFirstOrThrow()).id;
    assert.equal((await admin.post(`/admin/api/photos/${first}/rotate`, { degrees: 90 })).status, 200);
    await userClient(s.url, admin, 'family', 'aunt-mary');
    assert.equal((await admin.put('/admin/api/settings', { guest_downloads: true, couple_names: ['Zoë', 'Luc'] })).status, 200);
    const guest = new TestClient(s.url);
    const note = await postMessage(guest, { message: 'Félicitations !', name: 'Anna', audio: makeAudio('m4a', 2) });
    assert.equal(note.status, 201, JSON.stringify(note.body));
    assert.equal((await postMessage(guest, { message: 'Just words', name: 'Ben' })).status, 201);
    await until(async () => !(await s.ctx.db.selectFrom('guestbook').select('audio_status').where('audio_status', '=', 'processing').executeTakeFirst()), 'the voice note processed');
    await s.services.processing.idle();
    await allCopied(s, admin);
    await s.services.offsite.copyDatabaseNow();
  } finally {
    await s.close();
  }
  Object.assign(was, rowsOf(source));
  for (const p of was.photos) was.originals.set(p.stored_path, fs.readFileSync(path.join(source, p.stored_path)));
  assert.equal(was.photos.length, 3);
  assert.equal(was.guestbook.length, 2);
});
after(async () => {
  await bucket?.close();
});

test('restore onto an empty folder: the site starts with the same photos (bytes), accounts, settings and guestbook, and copies nothing again', async () => {
  const target = tempDir('restore-target-');
  const r = await restoreFromBucket({ settings: settings(), dataDir: target });
  assert.deepEqual(r.missing, []);
  assert.deepEqual(r.damaged, []);
  assert.equal(r.checked, 3, 'every original checked, the rotated one too');
  assert.deepEqual(r.counts, { photos: 3, users: 2, guestbook: 2 });
  assert.ok(!fs.existsSync(path.join(target, 'session-secret')), 'no session secret comes from the bucket: the site makes a new one');

  const now = rowsOf(target);
  assert.deepEqual(now.photos, was.photos);
  assert.deepEqual(now.users, was.users);
  assert.equal(now.settings, was.settings);
  assert.deepEqual(now.guestbook, was.guestbook);

  const seenBefore = bucket.requests.length;
  const s = await startTestServer(bucket.env, target, FAST);
  try {
    const admin = await adminClient(s.url);
    // Every original as it was, through the admins' download.
    for (const p of was.photos) {
      const link = await admin.get(`/admin/api/photos/${p.id}/download`);
      const res = await admin.fetch(link.body.download_url);
      assert.equal(res.status, 200);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), was.originals.get(p.stored_path), p.original_filename);
      const thumb = await admin.fetch(`/media/${p.id}/thumb`);
      assert.equal(thumb.status, 200);
    }
    const gallery = (await new TestClient(s.url).get('/api/photos')).body;
    assert.equal(gallery.photos.length, 3);
    const users = (await admin.get('/admin/api/users')).body.users.map((u: any) => u.username).sort();
    assert.deepEqual(users, ['admin', 'aunt-mary']);
    const mary = new TestClient(s.url);
    await mary.login('aunt-mary', 'password-family');
    const set = (await admin.get('/api/settings')).body.settings;
    assert.deepEqual(set.couple_names, ['Zoë', 'Luc']);
    assert.equal(set.guest_downloads, true);
    const voice = was.guestbook.find((g) => g.audio_path);
    assert.equal(sha256(fs.readFileSync(path.join(target, voice.audio_path))), voice.audio_sha256);
    // The copy sees the bucket holds everything already: nothing but database copies is sent.
    await allCopied(s, admin);
    const sent = bucket.requests.slice(seenBefore).filter((q) => q.method === 'PUT' && !q.key.startsWith(`${PREFIX}/database/`));
    assert.deepEqual(sent.map((q) => q.key), []);
  } finally {
    await s.close();
  }
});

test('a folder that holds a site is refused, unless --force', async () => {
  const target = tempDir('restore-busy-');
  fs.writeFileSync(path.join(target, 'wedding.db'), 'a site of its own');
  await assert.rejects(restoreFromBucket({ settings: settings(), dataDir: target }), (e: Error) => e instanceof RestoreError && /is not empty/.test(e.message));
  assert.equal(fs.readFileSync(path.join(target, 'wedding.db'), 'utf8'), 'a site of its own', 'left as it was');
  const r = await restoreFromBucket({ settings: settings(), dataDir: target, force: true });
  assert.deepEqual(r.missing, []);
  assert.equal(rowsOf(target).photos.length, 3);
});

test('the command: a missing object is named and the exit code says so; a busy folder is refused', async () => {
  const built = path.join(ROOT, 'dist/server/restore.js');
  assert.ok(fs.existsSync(built), 'node scripts/build.mjs first');
  const env = { ...bucket.env, DATA_DIR: '' };
  const busy = tempDir('restore-cli-busy-');
  fs.mkdirSync(path.join(busy, 'media'));
  const refused = await cli(['--from-bucket', '--data-dir', busy], env);
  assert.equal(refused.code, 1, refused.stdout + refused.stderr);
  assert.match(refused.stderr, /Restore refused: .* is not empty/);

  const gone = was.photos[1].stored_path;
  await bucket.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${gone}` }));
  const target = tempDir('restore-cli-');
  const out = await cli(['--from-bucket', '--data-dir', target], env);
  assert.equal(out.code, 1, out.stdout + out.stderr);
  assert.match(out.stdout, /3 photos and videos, 2 accounts, 2 guestbook messages/);
  assert.match(out.stdout, /Missing: .*\(1\):\n {2}(\S+)\n/);
  assert.ok(out.stdout.includes(`  ${gone}\n`), out.stdout);
  // What the bucket held is back all the same.
  for (const p of was.photos) {
    if (p.stored_path === gone) assert.ok(!fs.existsSync(path.join(target, p.stored_path)));
    else assert.deepEqual(fs.readFileSync(path.join(target, p.stored_path)), was.originals.get(p.stored_path));
  }
});
