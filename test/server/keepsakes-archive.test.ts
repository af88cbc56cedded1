import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { ADMIN, serverWithAdmin, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { runCli } from './backup-helpers.js';
import { addPhoto } from './photos-fixture.js';

// The keepsakes leave the site with it: in the ZIP export (keepsakes/) and in a backup, from
// which a restore brings back their rows and files (the couple's music too).
let s: TestServer;
let admin: TestClient;
let book: { id: string; created_at: string };
let bookBytes: Buffer;
let musicId: string;
const dir = tempDir('wedding-keepsakes-archive-');

before(async () => {
  ({ s, admin } = await serverWithAdmin());
  const file = path.join(dir, 'photo.jpg');
  await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 120, b: 90 } } }).jpeg().toFile(file);
  await addPhoto(s, { file, visible: true });
  const r = await admin.post('/admin/api/keepsakes', { kind: 'book', paper: 'square', source: 'visible' });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  await s.services.processing.idle();
  book = (await admin.get('/admin/api/keepsakes')).body.keepsakes.find((k: any) => k.id === r.body.keepsake.id);
  assert.equal((book as any).status, 'ready');
  bookBytes = Buffer.from(await (await admin.fetch(`/admin/api/keepsakes/${book.id}/file`)).arrayBuffer());
  const track = path.join(dir, 'song.m4a');
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:a', 'aac', '-y', track]);
  const form = new FormData();
  form.append('file', new Blob([fs.readFileSync(track)], { type: 'audio/mp4' }), 'our song.m4a');
  const m = await admin.fetch('/admin/api/keepsakes/music', { method: 'POST', body: form });
  assert.equal(m.status, 201, await m.clone().text());
  musicId = ((await m.json()) as any).music.id;
});
after(() => s.close());

describe('keepsakes in the ZIP export and the backups', () => {
  test('the whole site\'s ZIP holds the book in keepsakes/, byte for byte, and not the music', async () => {
    const zip = path.join(dir, 'export.zip');
    const res = await admin.fetch('/admin/api/export.zip?scope=all');
    assert.equal(res.status, 200);
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    assert.equal(spawnSync('unzip', ['-tq', zip]).status, 0);
    const names = spawnSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
    const entry = `keepsakes/book-${book.created_at.slice(0, 10)}-square.pdf`;
    assert.ok(names.includes(entry), names.join(', '));
    assert.ok(!names.some((n) => n.startsWith('keepsakes/music')), 'the couple\'s tracks stay out');
    assert.ok(spawnSync('unzip', ['-p', zip, entry], { maxBuffer: 64 << 20 }).stdout.equals(bookBytes));
  });

  test('a backup holds the book and the music; a restored site lists and serves them', async () => {
    const archive = path.join(tempDir('wedding-keepsakes-backup-'), 'backup.tar.gz');
    const made = await runCli('backup', [archive], { DATA_DIR: s.dataDir });
    assert.equal(made.code, 0, made.out);
    const listing = spawnSync('tar', ['tzf', archive], { encoding: 'utf8' }).stdout.split('\n');
    assert.ok(listing.some((n) => n === `media/keepsakes/${book.id}.pdf`), 'the book');
    assert.ok(listing.some((n) => n.startsWith(`media/keepsakes/music/${musicId}.`)), 'the track');
    const dataDir = path.join(tempDir('wedding-keepsakes-restore-'), 'data');
    const r = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.out);
    const restored = await startTestServer({}, dataDir);
    try {
      const radmin = new TestClient(restored.url);
      await radmin.login(ADMIN.username, ADMIN.password);
      const list = (await radmin.get('/admin/api/keepsakes')).body;
      const k = list.keepsakes.find((x: any) => x.id === book.id);
      assert.equal(k?.status, 'ready');
      assert.deepEqual(list.music.map((m: any) => [m.id, m.original_name]), [[musicId, 'our song.m4a']]);
      const back = Buffer.from(await (await radmin.fetch(k.url)).arrayBuffer());
      assert.ok(back.equals(bookBytes), 'the book byte for byte');
    } finally {
      await restored.close();
    }
  });

  test('a keepsake whose file is gone is left out of the backup\'s database rather than listed without one', async () => {
    fs.rmSync(path.join(s.dataDir, 'media', 'keepsakes', `${book.id}.pdf`));
    const archive = path.join(tempDir('wedding-keepsakes-backup-'), 'backup.tar.gz');
    const made = await runCli('backup', [archive], { DATA_DIR: s.dataDir });
    assert.equal(made.code, 0, made.out);
    const dataDir = path.join(tempDir('wedding-keepsakes-restore-'), 'data');
    assert.equal((await runCli('restore', [archive, '--data-dir', dataDir])).code, 0);
    const restored = await startTestServer({}, dataDir);
    try {
      const radmin = new TestClient(restored.url);
      await radmin.login(ADMIN.username, ADMIN.password);
      const list = (await radmin.get('/admin/api/keepsakes')).body;
      assert.deepEqual(list.keepsakes, []);
      assert.equal(list.music.length, 1);
    } finally {
      await restored.close();
    }
  });
});
