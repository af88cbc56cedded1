import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { ADMIN, startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { allPhotos, originalBytes, runCli, sha256, slowPost, uploadFile, waitFor, type ListedPhoto } from './backup-helpers.js';

const BEFORE = ['Canon_40D.jpg', 'Nikon_D70.jpg'];
/** Uploaded one after another while the backup runs: each lands before or after the snapshot. */
const RACING = ['hdr_iphone_hdr_YES.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg', 'gps_DSCN0010.jpg'];
/** Half sent before the backup starts and finished only after it ends: in progress throughout. */
const HELD = ['mobile_jolla.jpg', 'orientation_landscape_6.jpg', 'orientation_portrait_6.jpg'];
const FAMILY = { username: 'aunt-rose', password: 'rose-garden-77' };

describe('backup while guests upload, then restore into a fresh folder', () => {
  let src: Awaited<ReturnType<typeof startTestServer>>;
  let admin: TestClient;
  let archive: string;
  let manifest: any;
  let settingsAtBackup: unknown;
  let usersAtBackup: { username: string; role: string }[];
  const uploaded = new Map<string, string>(); // photo id -> sha256 of the sample sent
  const beforeIds: string[] = [];
  const heldIds: string[] = [];

  before(async () => {
    src = await startTestServer();
    admin = new TestClient(src.url);
    await admin.login();
    const created = await admin.post('/admin/api/users', {
      username: FAMILY.username,
      email: 'rose@example.com',
      full_name: 'Rose',
      role: 'family',
      password: FAMILY.password,
    });
    assert.equal(created.status, 201);
    const put = await admin.put('/admin/api/settings', { couple_names: ['Ada', 'Grace'], welcome_message: 'Backed up with love' });
    assert.equal(put.status, 200);
    settingsAtBackup = (await admin.get('/api/settings')).body.settings;
    usersAtBackup = (await admin.get('/admin/api/users')).body.users.map((u: any) => ({ username: u.username, role: u.role }));

    for (const name of BEFORE) {
      const r = await uploadFile(src.url, sample(name));
      assert.equal(r.status, 201, JSON.stringify(r.body));
      uploaded.set(r.body.photo_id, sha256(sample(name)));
      beforeIds.push(r.body.photo_id);
    }

    archive = path.join(tempDir('wedding-backups-'), 'wedding-test.tar.gz');
    const held = HELD.map((name) => {
      const bytes = fs.readFileSync(sample(name));
      return { name, req: slowPost(src.url + '/api/upload', { session_id: 'held' }, { bytes, filename: name, type: 'image/jpeg' }) };
    });
    await waitFor('the held uploads to reach the server', async () => fs.readdirSync(src.ctx.paths.incoming).length >= HELD.length);
    let backupEnded = false;
    const backup = runCli('backup', [archive], { DATA_DIR: src.dataDir }).finally(() => (backupEnded = true));
    // Guests keep uploading for as long as the backup runs; a trailer after the JPEG's end makes
    // each one a new photo rather than a duplicate.
    const racing = (async () => {
      for (let i = 0; !backupEnded || i < RACING.length; i++) {
        const name = RACING[i % RACING.length];
        const bytes = Buffer.concat([fs.readFileSync(sample(name)), Buffer.from(`racing-${i}`)]);
        const r = await uploadFile(src.url, sample(name), bytes);
        assert.equal(r.status, 201, JSON.stringify(r.body));
        uploaded.set(r.body.photo_id, sha256(bytes));
      }
    })();
    const [result] = await Promise.all([backup, racing]);
    for (const h of held) h.req.finish();
    for (const h of held) {
      const r = await h.req.answer;
      assert.ok('status' in r && r.status === 201, `held upload ${h.name} is stored after the backup: ${JSON.stringify(r)}`);
      uploaded.set(r.body.photo_id, sha256(sample(h.name)));
      heldIds.push(r.body.photo_id);
    }
    assert.equal(result.code, 0, result.out);
    assert.match(result.out, /Backup written: .*wedding-test\.tar\.gz/);
    assert.ok(fs.existsSync(archive), 'the archive exists under its final name');
    assert.ok(!fs.existsSync(archive + '.partial'), 'no partial file is left behind');
    assert.deepEqual(
      fs.readdirSync(src.dataDir).filter((n) => n.startsWith('.backup-')),
      [],
      'the hard-link staging folder is removed',
    );
  });

  after(async () => {
    await src?.close();
  });

  test('the archive is a plain tar.gz with the database, originals, manifest and checksums', async (t) => {
    const out = tempDir('wedding-untar-');
    const { spawnSync } = await import('node:child_process');
    const tar = spawnSync('tar', ['xzf', archive, '-C', out]);
    assert.equal(tar.status, 0, String(tar.stderr));
    manifest = JSON.parse(fs.readFileSync(path.join(out, 'backup-manifest.json'), 'utf8'));
    assert.equal(manifest.app, 'wedding-photos');
    t.diagnostic(`snapshot holds ${manifest.counts.photos} of ${uploaded.size} photos (${BEFORE.length} were in before the backup began)`);
    assert.ok(!Number.isNaN(Date.parse(manifest.created_at)));
    assert.equal(manifest.counts.users, 2);
    assert.ok(manifest.counts.photos >= BEFORE.length && manifest.counts.photos <= uploaded.size - HELD.length);
    assert.equal(manifest.files.originals, manifest.counts.photos);
    assert.deepEqual(manifest.dropped_photos, []);
    assert.ok(fs.existsSync(path.join(out, 'wedding.db')));
    assert.ok(!fs.existsSync(path.join(out, 'wedding.db-wal')), 'the snapshot is one self-contained file');
    assert.ok(!fs.existsSync(path.join(out, 'media', 'incoming')), 'partial uploads are left out');
    const sums = spawnSync('sha256sum', ['-c', '--quiet', 'SHA256SUMS'], { cwd: out });
    assert.equal(sums.status, 0, `sha256sum -c: ${sums.stdout}${sums.stderr}`);
    const originals = fs.readdirSync(path.join(out, 'media', 'originals'));
    assert.equal(originals.length, manifest.counts.photos);
  });

  test('a restored site has every photo, account and setting of the backup, originals byte for byte', async () => {
    const dataDir = path.join(tempDir('wedding-restore-'), 'data');
    const r = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /Restored the backup/);
    assert.ok(!fs.existsSync(path.join(dataDir, 'backup-manifest.json')));
    assert.deepEqual(fs.readdirSync(dataDir).filter((n) => n.startsWith('.restore-')), []);

    const finalSource = new Set((await allPhotos(admin)).map((p) => p.id));
    const restored = await startTestServer({}, dataDir);
    try {
      const radmin = new TestClient(restored.url);
      await radmin.login(ADMIN.username, ADMIN.password);
      await new TestClient(restored.url).login(FAMILY.username, FAMILY.password);
      assert.deepEqual((await radmin.get('/api/settings')).body.settings, settingsAtBackup);
      const users = (await radmin.get('/admin/api/users')).body.users.map((u: any) => ({ username: u.username, role: u.role }));
      assert.deepEqual(users.sort((a: any, b: any) => a.username.localeCompare(b.username)), usersAtBackup.sort((a, b) => a.username.localeCompare(b.username)));

      const photos = await allPhotos(radmin);
      const ids = photos.map((p) => p.id);
      assert.equal(ids.length, manifest.counts.photos, 'exactly the photos of the snapshot');
      for (const id of beforeIds) assert.ok(ids.includes(id), `photo ${id}, uploaded before the backup, is restored`);
      for (const id of heldIds) assert.ok(!ids.includes(id), `photo ${id}, still arriving during the backup, is not in it`);
      for (const id of ids) assert.ok(finalSource.has(id), `restored photo ${id} existed on the source`);
      for (const id of ids) {
        const bytes = await originalBytes(radmin, id);
        assert.equal(sha256(bytes), uploaded.get(id), `original of ${id} is byte-identical`);
      }

      // Photos caught mid-processing finish on the restored site: their jobs were in the snapshot.
      const done = await waitFor('restored photos to finish processing', async () => {
        const list = await allPhotos(radmin);
        return list.every((p) => p.status !== 'processing') && list;
      });
      for (const p of done as ListedPhoto[]) {
        assert.equal(p.status, 'complete', `${p.original_filename} processed`);
        const thumb = await radmin.fetch(p.thumbnail_url!);
        assert.equal(thumb.status, 200);
        assert.match(thumb.headers.get('content-type') ?? '', /^image\//);
      }
    } finally {
      await restored.close();
    }
  });

  test('restore refuses a folder that already holds a site, and --force replaces it', async () => {
    const dataDir = tempDir('wedding-occupied-');
    const other = await startTestServer({}, dataDir);
    await other.close();
    const before = fs.readdirSync(dataDir).sort();
    const refused = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(refused.code, 1);
    assert.match(refused.out, /is not empty/);
    assert.match(refused.out, /--force/);
    assert.deepEqual(fs.readdirSync(dataDir).sort(), before, 'nothing was touched');

    fs.mkdirSync(path.join(dataDir, 'backups'));
    fs.writeFileSync(path.join(dataDir, 'backups', 'keep.txt'), 'mine');
    const forced = await runCli('restore', [archive, '--data-dir', dataDir, '--force']);
    assert.equal(forced.code, 0, forced.out);
    assert.equal(fs.readFileSync(path.join(dataDir, 'backups', 'keep.txt'), 'utf8'), 'mine', 'backups kept beside the data stay');
    const s = await startTestServer({}, dataDir);
    try {
      const a = new TestClient(s.url);
      await a.login();
      assert.equal((await allPhotos(a)).length, manifest.counts.photos);
    } finally {
      await s.close();
    }
  });

  test('a damaged archive is refused before anything in the folder changes', async () => {
    const bad = path.join(path.dirname(archive), 'truncated.tar.gz');
    const full = fs.readFileSync(archive);
    fs.writeFileSync(bad, full.subarray(0, Math.floor(full.length * 0.6)));
    const dataDir = tempDir('wedding-damaged-');
    fs.writeFileSync(path.join(dataDir, 'wedding.db'), 'current data');
    const r = await runCli('restore', [bad, '--data-dir', dataDir, '--force']);
    assert.equal(r.code, 1);
    assert.match(r.out, /Restore refused: .*(complete|damaged)/);
    assert.equal(fs.readFileSync(path.join(dataDir, 'wedding.db'), 'utf8'), 'current data');
    assert.deepEqual(fs.readdirSync(dataDir), ['wedding.db']);
  });

  test('the CLI reads DATA_DIR like the server and names the archive by date without an argument', async () => {
    const r = await runCli('backup', [], { DATA_DIR: src.dataDir });
    assert.equal(r.code, 0, r.out);
    const made = fs.readdirSync(path.join(src.dataDir, 'backups'));
    assert.equal(made.length, 1);
    assert.match(made[0], /^wedding-\d{4}-\d{2}-\d{2}-\d{6}\.tar\.gz$/);
    const missing = await runCli('backup', ['--data-dir', tempDir('wedding-nothing-')]);
    assert.equal(missing.code, 1);
    assert.match(missing.out, /No database/);
  });
});
