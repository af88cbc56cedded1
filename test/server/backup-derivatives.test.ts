// A backup holds every derivative its database names, and a restore makes the ones an archive
// lacks (CONTRACT "Nothing acknowledged is ever lost": backups). The derivatives are changed by
// real regenerations between the snapshot and the collection of files.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createBackup } from '../../server/backup/create.js';
import { restoreBackup } from '../../server/backup/restore.js';
import { openDatabase } from '../../server/db/open.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient, type TestServer } from '../helpers/server.js';
import { uploadFile } from './backup-helpers.js';

function untar(archive: string): string {
  const dir = tempDir('wedding-untar-');
  const r = spawnSync('tar', ['xzf', archive, '-C', dir]);
  assert.equal(r.status, 0, String(r.stderr));
  return dir;
}

/** Every thumbnail, display image and web copy an unpacked archive's database names, and whether the archive holds it. */
function namedDerivatives(dir: string): { id: string; path: string; held: boolean }[] {
  const db = openDatabase(path.join(dir, 'wedding.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT id, thumb_path, display_path FROM photos').all() as { id: string; thumb_path: string | null; display_path: string | null }[];
    return rows.flatMap((r) => [r.thumb_path, r.display_path].flatMap((p) => (p ? [{ id: r.id, path: p, held: fs.existsSync(path.join(dir, p)) }] : [])));
  } finally {
    db.close();
  }
}

async function sitePhoto(): Promise<{ s: TestServer; id: string }> {
  const s = await startTestServer();
  const up = await uploadFile(s.url, sample('Canon_40D.jpg'));
  assert.equal(up.status, 201);
  await s.services.processing.idle();
  return { s, id: up.body.photo_id };
}

const versionOf = (s: TestServer, id: string) => s.ctx.sqlite.prepare('SELECT derivative_version FROM photos WHERE id = ?').pluck().get(id) as number;

test('derivatives rebuilt between the snapshot and the collection of files: the backup still holds every derivative its database names', async () => {
  const { s, id } = await sitePhoto();
  try {
    const archive = path.join(tempDir('wedding-deriv-'), 'b.tar.gz');
    let regenerated = false;
    await createBackup({
      dataDir: s.dataDir,
      archive,
      // Right after the first snapshot, an admin regenerates the thumbnails: the snapshot's files are replaced.
      afterSnapshot: async () => {
        if (regenerated) return;
        regenerated = true;
        await s.services.processing.regenerate(id);
      },
    });
    assert.equal(versionOf(s, id), 2, 'the files named by the first snapshot were removed while the backup ran');
    const named = namedDerivatives(untar(archive));
    assert.equal(named.length, 2);
    assert.deepEqual(named.filter((d) => !d.held), [], 'every derivative the archive names is in it');
  } finally {
    await s.close();
  }
});

test('derivatives replaced on every snapshot: the archive names none it lacks, and the restored site makes them again', async () => {
  const { s, id } = await sitePhoto();
  const archive = path.join(tempDir('wedding-deriv-'), 'b.tar.gz');
  try {
    await createBackup({ dataDir: s.dataDir, archive, afterSnapshot: () => s.services.processing.regenerate(id) });
  } finally {
    await s.close();
  }
  assert.deepEqual(namedDerivatives(untar(archive)).filter((d) => !d.held), []);
  await restoreAndCheckServed(archive, id);
});

test('an archive naming derivatives it lacks (made before backups checked them) is restored, and the site makes them again', async () => {
  const { s, id } = await sitePhoto();
  const thumb = s.ctx.sqlite.prepare('SELECT thumb_path FROM photos WHERE id = ?').pluck().get(id) as string;
  await s.close();
  fs.rmSync(path.join(s.dataDir, thumb)); // the archive will name it but not hold it
  const archive = path.join(tempDir('wedding-deriv-'), 'by-hand.tar.gz');
  assert.equal(spawnSync('tar', ['czf', archive, '-C', s.dataDir, 'wedding.db', 'media']).status, 0);
  const { rebuilt } = await restoreAndCheckServed(archive, id);
  assert.equal(rebuilt, 1);
});

/** Restores into a new folder, starts the site and checks the photo's thumbnail and display image are served. */
async function restoreAndCheckServed(archive: string, id: string): Promise<{ rebuilt: number }> {
  const dataDir = path.join(tempDir('wedding-deriv-restore-'), 'data');
  const { rebuilt } = await restoreBackup({ archive, dataDir });
  const site = await startTestServer({}, dataDir);
  try {
    await site.services.processing.idle();
    const admin = new TestClient(site.url);
    await admin.login();
    const photo = (await admin.get('/admin/api/photos?show_all=true')).body.photos.find((p: { id: string }) => p.id === id) as { thumbnail_url: string; display_url: string; status: string };
    assert.equal(photo.status, 'complete');
    for (const url of [photo.thumbnail_url, photo.display_url]) {
      const res = await admin.fetch(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.headers.get('content-type'), 'image/webp');
    }
  } finally {
    await site.close();
  }
  return { rebuilt };
}
