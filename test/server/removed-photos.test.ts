// A deleted photo never comes back as a recovered one, and a rotation's unfinished copy is never adopted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PhotosRepo } from '../../server/photos/photos.repo.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { sha256, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

const count = (s: { ctx: { sqlite: { prepare(q: string): { get(...a: unknown[]): unknown } } } }, q: string, ...args: unknown[]) =>
  (s.ctx.sqlite.prepare(q).get(...args) as { n: number }).n;

test('a crash between a deleted photo\'s row and its files does not bring it back at the next start; the files go then', async () => {
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  const bytes = await tinyImage('jpeg', 701, 120, 90);
  const r = await uploadFile(s1.url, bytes, 'gone.jpg');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s1.url, r.body.photo_id), 'complete');
  await s1.services.processing.idle();
  const stored = s1.ctx.sqlite.prepare('SELECT stored_path, thumb_path FROM photos WHERE id = ?').get(r.body.photo_id) as { stored_path: string; thumb_path: string };
  // The delete's database step, as an admin's or a guest's delete runs it; then the process dies before the files go.
  const deleted = await new PhotosRepo(s1.ctx.db).delete(r.body.photo_id);
  assert.ok(deleted);
  await s1.close();
  assert.ok(fs.existsSync(path.join(dir, stored.stored_path)), 'the original was left behind');

  const s2 = await startTestServer({}, dir);
  try {
    assert.equal(count(s2, 'SELECT count(*) n FROM photos WHERE sha256 = ?', sha256(bytes)), 0, 'the deleted photo is not recovered');
    assert.equal(count(s2, 'SELECT count(*) n FROM photos'), 0);
    assert.equal(fs.existsSync(path.join(dir, stored.stored_path)), false, 'its original is removed at start');
    assert.equal(fs.existsSync(path.join(dir, stored.thumb_path)), false, 'and its derivatives');
    const admin = new TestClient(s2.url);
    await admin.login();
    assert.doesNotMatch(JSON.stringify((await admin.get('/admin/api/dashboard')).body.recent_activity), /Recovered/);
  } finally {
    await s2.close();
  }
  const s3 = await startTestServer({}, dir);
  try {
    assert.equal(count(s3, 'SELECT count(*) n FROM photos'), 0, 'nor at any later start');
  } finally {
    await s3.close();
  }
});

test("a rotation's unfinished copy beside an original is never adopted as a photo", async () => {
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  const r = await uploadFile(s1.url, await tinyImage('jpeg', 702, 120, 90), 'turned.jpg');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s1.url, r.body.photo_id), 'complete');
  await s1.services.processing.idle();
  const stored = (s1.ctx.sqlite.prepare('SELECT stored_path FROM photos WHERE id = ?').get(r.body.photo_id) as { stored_path: string }).stored_path;
  await s1.close();
  // The process died while writing the turned copy (different bytes, a valid JPEG start).
  const half = path.join(dir, `${stored}.rotating`);
  const turned = await tinyImage('jpeg', 703, 90, 120);
  fs.writeFileSync(half, turned.subarray(0, Math.ceil(turned.length / 2)));

  const s2 = await startTestServer({}, dir);
  try {
    assert.equal(count(s2, 'SELECT count(*) n FROM photos'), 1, 'only the photo itself');
    assert.equal(count(s2, 'SELECT count(*) n FROM photos WHERE recovered_at IS NOT NULL'), 0);
    assert.equal(fs.existsSync(half), false, 'the unfinished copy is cleared away');
    assert.ok(fs.existsSync(path.join(dir, stored)), 'the original stays');
  } finally {
    await s2.close();
  }
});
