import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { allPhotos, ROOT, runCli, uploadFile, waitFor } from './backup-helpers.js';

test('a backup stopped with Ctrl-C leaves neither a partial archive nor its staging folder', async () => {
  const s = await startTestServer();
  await s.close();
  // Enough incompressible bytes that the archive takes a moment to write.
  const big = path.join(s.dataDir, 'media', 'derived', 'big.bin');
  const fd = fs.openSync(big, 'w');
  for (let i = 0; i < 6; i++) fs.writeSync(fd, crypto.randomBytes(16 * 1024 * 1024));
  fs.closeSync(fd);

  const out = path.join(tempDir('wedding-interrupt-'), 'stopped.tar.gz');
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/backup.js'), out, '--data-dir', s.dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await waitFor('the archive to start', async () => fs.existsSync(out + '.partial') || child.exitCode !== null, 20_000);
  child.kill('SIGINT');
  const code = await exited;

  assert.equal(code, 1, `exit ${code}: ${log}`);
  assert.match(log, /Backup failed: Stopped before the backup was complete/);
  assert.ok(!fs.existsSync(out), 'no archive under the final name');
  assert.ok(!fs.existsSync(out + '.partial'), 'the partial file is removed');
  assert.deepEqual(fs.readdirSync(s.dataDir).filter((n) => n.startsWith('.backup-')), []);

  // The next backup works as usual.
  const again = await runCli('backup', [out, '--data-dir', s.dataDir]);
  assert.equal(again.code, 0, again.out);
  assert.ok(fs.statSync(out).size > 6 * 16 * 1024 * 1024);
});

test('a photo whose original is gone when the backup pins files is left out of the archive\'s database too', async () => {
  const s = await startTestServer();
  const kept = await uploadFile(s.url, sample('Canon_40D.jpg'));
  const gone = await uploadFile(s.url, sample('Nikon_D70.jpg'));
  assert.equal(kept.status, 201);
  assert.equal(gone.status, 201);
  await waitFor('processing', async () => (await s.services.processing.idle(), true));
  const row = await s.ctx.db.selectFrom('photos').select('stored_path').where('id', '=', gone.body.photo_id).executeTakeFirstOrThrow();
  fs.rmSync(path.join(s.dataDir, row.stored_path)); // as if deleted right after the snapshot
  const archive = path.join(tempDir('wedding-dropped-'), 'b.tar.gz');
  const r = await runCli('backup', [archive], { DATA_DIR: s.dataDir });
  await s.close();
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /1 photo\(s\) had no original file/);

  const dataDir = path.join(tempDir('wedding-dropped-restore-'), 'data');
  const restored = await runCli('restore', [archive, '--data-dir', dataDir]);
  assert.equal(restored.code, 0, restored.out);
  const again = await startTestServer({}, dataDir);
  try {
    const admin = new TestClient(again.url);
    await admin.login();
    assert.deepEqual((await allPhotos(admin)).map((p) => p.id), [kept.body.photo_id]);
  } finally {
    await again.close();
  }
});
