// Names a guest chose are data: no invisible characters are stored, and downloads and ZIP entries
// end with the file's real extension. A photo, its activity and its job are one transaction, and
// what a crash left half-done is put right at start: nothing in originals is ever deleted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SqliteSessionStore } from '../../server/auth/session-store.js';
import { openDatabase, openSqlite } from '../../server/db/open.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { sha256, tinyImage, uploadChunk, uploadFile, waitForStatus } from '../helpers/uploads.js';

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

test('the start-up sweep queues a photo that never got its job and adopts an original nobody owns as a hidden photo, never deleting one', async () => {
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  const admin = new TestClient(s1.url);
  await admin.login();
  // Automatic approval is on: a recovered file must still wait for the couple.
  assert.equal((await admin.put('/admin/api/settings', { moderation: 'auto' })).status, 200);
  const kept = await uploadFile(s1.url, await tinyImage('jpeg', 31), 'kept.jpg');
  const stuck = await uploadFile(s1.url, await tinyImage('jpeg', 32), 'stuck.jpg');
  await s1.services.processing.idle();
  // What a crash between the steps of an older version left: a photo with no job, never processed...
  s1.writable().prepare(`UPDATE photos SET status = 'processing', thumb_path = NULL, display_path = NULL WHERE id = ?`).run(stuck.body.photo_id);
  s1.writable().prepare('DELETE FROM jobs WHERE photo_id = ?').run(stuck.body.photo_id);
  await s1.close();
  // ...an original moved into place whose row was lost (a power cut before its commit reached the disk)...
  const originals = path.join(dir, 'media', 'originals');
  const strayBytes = await tinyImage('jpeg', 33);
  const stray = path.join(originals, 'strayfile.jpg');
  fs.writeFileSync(stray, strayBytes);
  const takenAt = new Date('2026-06-20T15:04:05.000Z');
  fs.utimesSync(stray, takenAt, takenAt);
  // ...a second copy of bytes already stored, and a file that is no photo at all.
  const copy = path.join(originals, 'copy-of-kept.jpg');
  fs.writeFileSync(copy, await tinyImage('jpeg', 31));
  const notes = path.join(originals, 'notes.txt');
  fs.writeFileSync(notes, 'not a photo');

  const s2 = await startTestServer({}, dir);
  try {
    for (const f of [stray, copy, notes]) assert.ok(fs.existsSync(f), `${path.basename(f)} is never deleted`);
    const adopted = s2.ctx.sqlite.prepare(`SELECT * FROM photos WHERE stored_path = ?`).get(path.join('media', 'originals', 'strayfile.jpg')) as any;
    assert.ok(adopted, 'the original nobody owned is a photo again');
    assert.equal(adopted.sha256, sha256(strayBytes));
    assert.equal(adopted.file_size, strayBytes.length);
    assert.equal(adopted.content_type, 'image/jpeg');
    assert.equal(adopted.original_filename, 'strayfile.jpg');
    assert.equal(adopted.upload_timestamp, takenAt.toISOString(), "the file's time is its upload time");
    assert.ok(adopted.recovered_at);
    assert.equal(await waitForStatus(s2.url, adopted.id), 'complete', 'it is processed like a new upload');
    assert.equal(await waitForStatus(s2.url, stuck.body.photo_id), 'complete', 'the stuck photo is processed');
    await s2.services.processing.idle();
    const row = s2.ctx.sqlite.prepare('SELECT is_visible FROM photos WHERE id = ?').get(adopted.id) as { is_visible: number };
    assert.equal(row.is_visible, 0, 'hidden, even with automatic approval: the couple decides');
    const photos = s2.ctx.sqlite.prepare('SELECT count(*) n FROM photos').get() as { n: number };
    assert.equal(photos.n, 3, 'the copy of stored bytes and the text file are not photos');
    const s2admin = new TestClient(s2.url);
    await s2admin.login();
    const activity = (await s2admin.get('/admin/api/dashboard')).body;
    assert.match(JSON.stringify(activity), /Recovered 1 file /, 'the activity list says how many files were recovered');
    const owned = s2.ctx.sqlite.prepare('SELECT stored_path p FROM photos').all() as { p: string }[];
    for (const o of owned) assert.ok(fs.existsSync(path.join(dir, o.p)), `${o.p} stays`);
    assert.equal((await new TestClient(s2.url).get(`/api/photos/${kept.body.photo_id}/status`)).status, 200);
  } finally {
    await s2.close();
  }
  // A second start finds nothing new to recover.
  const s3 = await startTestServer({}, dir);
  try {
    assert.equal((s3.ctx.sqlite.prepare('SELECT count(*) n FROM photos').get() as { n: number }).n, 3);
  } finally {
    await s3.close();
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
