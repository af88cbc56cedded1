import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { allPhotos, originalBytes, runCli, sha256, uploadFile } from './backup-helpers.js';

function tar(args: string[], cwd?: string): void {
  const r = spawnSync('tar', args, { cwd });
  assert.equal(r.status, 0, `tar ${args.join(' ')}: ${r.stderr}`);
}

describe('restore reads archives made by hand with tar', () => {
  let site: string;
  let photoId: string;
  const longName = `media/derived/${'a-very-long-file-name-'.repeat(6)}.txt`;

  before(async () => {
    const s = await startTestServer();
    site = s.dataDir;
    const up = await uploadFile(s.url, sample('Pentax_K10D.jpg'));
    assert.equal(up.status, 201, JSON.stringify(up.body));
    photoId = up.body.photo_id;
    await s.close();
    // Longer than tar's 100-byte name field: GNU tar writes it as a long-name record.
    fs.writeFileSync(path.join(site, longName), 'long name kept');
  });

  test('a `tar czf` of a stopped site\'s data folder restores into a working site', async () => {
    const archive = path.join(tempDir('wedding-plain-'), 'by-hand.tar.gz');
    tar(['czf', archive, '-C', site, '.']);
    const dataDir = path.join(tempDir('wedding-plain-restore-'), 'data');
    const r = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(r.code, 0, r.out);
    assert.equal(fs.readFileSync(path.join(dataDir, longName), 'utf8'), 'long name kept');

    const s = await startTestServer({}, dataDir);
    try {
      const admin = new TestClient(s.url);
      await admin.login();
      assert.deepEqual((await allPhotos(admin)).map((p) => p.id), [photoId]);
      assert.equal(sha256(await originalBytes(admin, photoId)), sha256(sample('Pentax_K10D.jpg')));
    } finally {
      await s.close();
    }
  });

  test('an archive with a path leading outside the folder is refused and writes nothing', async () => {
    const work = tempDir('wedding-evil-');
    fs.mkdirSync(path.join(work, 'inner'));
    fs.writeFileSync(path.join(work, 'outside.txt'), 'escape');
    const archive = path.join(work, 'evil.tar.gz');
    tar(['-P', '-czf', archive, '../outside.txt'], path.join(work, 'inner'));
    const dataDir = path.join(tempDir('wedding-evil-target-'), 'data');
    const r = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(r.code, 1);
    assert.match(r.out, /unsafe path/);
    assert.ok(!fs.existsSync(path.join(path.dirname(dataDir), 'outside.txt')));
    assert.deepEqual(fs.readdirSync(dataDir), []);
  });

  test('a tar.gz that is not a backup of this site is refused', async () => {
    const work = tempDir('wedding-other-');
    fs.writeFileSync(path.join(work, 'notes.txt'), 'hello');
    const archive = path.join(work, 'other.tar.gz');
    tar(['czf', archive, '-C', work, 'notes.txt']);
    const dataDir = tempDir('wedding-other-target-');
    const r = await runCli('restore', [archive, '--data-dir', dataDir]);
    assert.equal(r.code, 1);
    assert.match(r.out, /holds no wedding\.db/);
    assert.deepEqual(fs.readdirSync(dataDir), []);
  });
});
