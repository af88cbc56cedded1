import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer } from '../helpers/server.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

test('jobs a crash left running or queued are resumed at the next start', async () => {
  const s1 = await startTestServer();
  const dir = s1.dataDir;
  const a = await uploadFile(s1.url, sample('Fujifilm_FinePix_E500.jpg'), 'a.jpg');
  const b = await uploadFile(s1.url, await tinyImage('png', 3), 'b.png');
  await s1.services.processing.idle();
  await s1.close();

  // What a crash looks like in the database: one job mid-run, one not started, no derivatives.
  const { openSqlite } = await import('../../server/db/open.js');
  const db = openSqlite(path.join(dir, 'wedding.db'));
  db.prepare("UPDATE photos SET status = 'processing', thumb_path = NULL, display_path = NULL").run();
  db.prepare("UPDATE jobs SET status = 'running', attempts = 1 WHERE photo_id = ?").run(a.body.photo_id);
  db.prepare("UPDATE jobs SET status = 'queued', attempts = 0 WHERE photo_id = ?").run(b.body.photo_id);
  db.close();
  fs.rmSync(path.join(dir, 'media', 'derived'), { recursive: true, force: true });

  const s2 = await startTestServer({}, dir);
  try {
    assert.equal(await waitForStatus(s2.url, a.body.photo_id), 'complete');
    assert.equal(await waitForStatus(s2.url, b.body.photo_id), 'complete');
    const jobs = s2.ctx.sqlite.prepare('SELECT status FROM jobs ORDER BY id').all() as { status: string }[];
    assert.deepEqual(jobs.map((j) => j.status), ['done', 'done']);
    const rows = s2.ctx.sqlite.prepare('SELECT thumb_path FROM photos').all() as { thumb_path: string }[];
    for (const r of rows) assert.ok(fs.existsSync(path.join(dir, r.thumb_path)));
  } finally {
    await s2.close();
  }
});
