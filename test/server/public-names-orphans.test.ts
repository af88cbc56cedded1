// Names a guest chose are data: no invisible characters are stored, and downloads and ZIP entries
// end with the file's real extension. A photo, its activity and its job are one transaction, and
// what an older crash left half-done is swept at start.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SqliteSessionStore } from '../../server/auth/session-store.js';
import { openDatabase, openSqlite } from '../../server/db/open.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { tinyImage, uploadChunk, uploadFile, waitForStatus } from '../helpers/uploads.js';

test('bidi overrides and control characters never reach a stored name; downloads and ZIP entries get the real extension', async () => {
  const s = await startTestServer();
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    const hta = await uploadFile(s.url, await tinyImage('jpeg', 11), 'x.hta');
    const tricky = await uploadFile(s.url, await tinyImage('png', 12), 'photo\u202egpj.exe\u200f');
    // A form field may carry raw control characters (a part header may not).
    const bell = await tinyImage('jpeg', 14);
    const chunked = await uploadChunk(s.url, bell, {
      chunk_start: 0,
      chunk_end: bell.length,
      total_size: bell.length,
      filename: 'bell\u0007\u2066name\u0085.jpg',
      session_id: 'names',
      is_last_chunk: true,
    });
    assert.equal(chunked.status, 201);
    const plain = await uploadFile(s.url, await tinyImage('jpeg', 13), 'IMG_0001.JPEG');
    for (const r of [hta, tricky, plain]) assert.equal(r.status, 201);
    const stored = (id: string) => (s.ctx.sqlite.prepare('SELECT original_filename f FROM photos WHERE id = ?').get(id) as { f: string }).f;
    assert.equal(stored(tricky.body.photo_id), 'photogpj.exe');
    assert.equal(stored(chunked.body.photo_id), 'bellname.jpg');

    const downloadName = async (id: string) => {
      const link = await admin.get(`/admin/api/photos/${id}/download`);
      const res = await admin.fetch(link.body.download_url);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      const cd = res.headers.get('content-disposition')!;
      const utf8 = /filename\*=UTF-8''([^;]+)/.exec(cd)?.[1];
      return utf8 ? decodeURIComponent(utf8) : /filename="?([^";]+)"?/.exec(cd)![1];
    };
    assert.equal(await downloadName(hta.body.photo_id), 'x.hta.jpg');
    assert.equal(await downloadName(tricky.body.photo_id), 'photogpj.exe.png');
    assert.equal(await downloadName(plain.body.photo_id), 'IMG_0001.JPEG', 'a name that already fits its type stays');

    const res = await admin.fetch('/admin/api/export.zip?scope=all');
    assert.equal(res.status, 200);
    const zip = path.join(tempDir('wedding-zip-'), 'all.zip');
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const entries = execFileSync('unzip', ['-Z1', zip]).toString().trim().split('\n');
    assert.ok(entries.some((e) => e.endsWith(' - x.hta.jpg')), entries.join(', '));
    assert.ok(entries.some((e) => e.endsWith(' - photogpj.exe.png')), entries.join(', '));
    assert.ok(entries.every((e) => !/[\u0000-\u001f\u202a-\u202e\u2066-\u2069\u200e\u200f]/.test(e)));
  } finally {
    await s.close();
  }
});

test('a photo row, its activity and its job are stored together or not at all', async () => {
  const s = await startTestServer();
  try {
    const count = (table: string) => Number((s.ctx.sqlite.prepare(`SELECT count(*) n FROM ${table}`).get() as { n: number }).n);
    const before = { photos: count('photos'), activity: count('activity'), jobs: count('jobs') };
    // A real failure of the last of the three writes: the jobs table refuses the insert.
    s.writable().exec(`CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs BEGIN SELECT RAISE(ABORT, 'jobs refused'); END`);
    const r = await uploadFile(s.url, await tinyImage('jpeg', 21), 'atomic.jpg');
    assert.equal(r.status, 500);
    assert.deepEqual({ photos: count('photos'), activity: count('activity'), jobs: count('jobs') }, before, 'no photo without its job');
    assert.deepEqual(fs.readdirSync(s.ctx.paths.originals), [], 'and no original without its photo');
    s.writable().exec('DROP TRIGGER refuse_jobs');
    const ok = await uploadFile(s.url, await tinyImage('jpeg', 21), 'atomic.jpg');
    assert.equal(ok.status, 201);
    assert.equal(await waitForStatus(s.url, ok.body.photo_id), 'complete');
  } finally {
    await s.close();
  }
});

test('the start-up sweep queues a photo that never got its job and removes an original nobody owns', async () => {
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  const kept = await uploadFile(s1.url, await tinyImage('jpeg', 31), 'kept.jpg');
  const stuck = await uploadFile(s1.url, await tinyImage('jpeg', 32), 'stuck.jpg');
  await s1.services.processing.idle();
  // What a crash between the steps of an older version left: a photo with no job, never processed...
  s1.writable().prepare(`UPDATE photos SET status = 'processing', thumb_path = NULL, display_path = NULL WHERE id = ?`).run(stuck.body.photo_id);
  s1.writable().prepare('DELETE FROM jobs WHERE photo_id = ?').run(stuck.body.photo_id);
  await s1.close();
  // ...and an original moved into place whose row was never written.
  const stray = path.join(dir, 'media', 'originals', 'strayfile.jpg');
  fs.writeFileSync(stray, await tinyImage('jpeg', 33));

  const s2 = await startTestServer({}, dir);
  try {
    assert.ok(!fs.existsSync(stray), 'the original nobody owns is removed');
    assert.equal(await waitForStatus(s2.url, stuck.body.photo_id), 'complete', 'the stuck photo is processed');
    const owned = s2.ctx.sqlite.prepare('SELECT stored_path p FROM photos').all() as { p: string }[];
    for (const o of owned) assert.ok(fs.existsSync(path.join(dir, o.p)), `${o.p} stays`);
    assert.equal((await new TestClient(s2.url).get(`/api/photos/${kept.body.photo_id}/status`)).status, 200);
  } finally {
    await s2.close();
  }
});

test('a busy or full database while purging expired sessions is logged, never thrown', async () => {
  const file = path.join(tempDir(), 'sessions.db');
  const owner = openSqlite(file);
  owner.exec(`CREATE TABLE sessions (sid TEXT PRIMARY KEY, sess TEXT NOT NULL, expires INTEGER NOT NULL)`);
  // Another connection holds the write lock; this one does not wait (no busy timeout).
  owner.exec('BEGIN IMMEDIATE');
  const other = openDatabase(file, { timeout: 0 });
  let store: SqliteSessionStore | undefined;
  assert.doesNotThrow(() => (store = new SqliteSessionStore(other, { purgeEveryMs: 20 })), 'the purge at start is guarded');
  await new Promise((r) => setTimeout(r, 80)); // the interval's purge runs into the lock too
  await assert.rejects(store!.purgeExpired(), /locked|busy/i, 'the database really was busy');
  owner.exec('COMMIT');
  assert.equal(await store!.purgeExpired(), 0, 'and purging works again once it is free');
  store!.close();
  other.close();
  owner.close();
});
