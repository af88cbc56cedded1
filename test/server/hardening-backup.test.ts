import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createBackup } from '../../server/backup/create.js';
import { restoreBackup } from '../../server/backup/restore.js';
import { openDatabase } from '../../server/db/open.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';
import { ROOT } from './backup-helpers.js';

/** A site with photos and a signed-in admin (so it has a session row and a session secret). */
async function site(files: string[]) {
  const s = await startTestServer();
  const admin = new TestClient(s.url);
  await admin.login();
  const ids: string[] = [];
  for (const f of files) {
    const up = await uploadFile(s.url, sample(f), f);
    assert.equal(await waitForStatus(s.url, up.body.photo_id), 'complete');
    ids.push(up.body.photo_id);
  }
  return { s, admin, ids };
}

const countSessions = (db: string) => {
  const c = openDatabase(db, { readonly: true });
  try {
    return c.prepare('SELECT count(*) FROM sessions').pluck().get() as number;
  } finally {
    c.close();
  }
};

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

async function photoIds(url: string): Promise<string[]> {
  const admin = new TestClient(url);
  await admin.login();
  const r = await admin.get('/admin/api/photos?page=1&per_page=100&show_all=true');
  return (r.body.photos as { id: string }[]).map((p) => p.id).sort();
}

test('a backup holds no session rows and no session secret, and is readable by its owner only (0600)', async () => {
  const { s } = await site(['Canon_40D.jpg']);
  try {
    assert.ok(countSessions(s.ctx.paths.database) > 0, 'the live site has a session');
    assert.ok(fs.existsSync(path.join(s.dataDir, 'session-secret')));
    const { archive } = await createBackup({ dataDir: s.dataDir });
    assert.equal(fs.statSync(archive).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.dirname(archive)).mode & 0o077, 0, 'the backups folder is private too');
    const names = spawnSync('tar', ['tzf', archive]).stdout.toString().split('\n');
    assert.ok(names.includes('wedding.db'));
    assert.ok(!names.some((n) => n.includes('session-secret')), names.join(' '));
    const out = tempDir('wedding-unpacked-');
    assert.equal(spawnSync('tar', ['xzf', archive, '-C', out, 'wedding.db']).status, 0);
    assert.equal(countSessions(path.join(out, 'wedding.db')), 0);
  } finally {
    await s.close();
  }
});

test('after a restore everyone signs in again, also from a plain tar of a data folder that holds sessions and the secret', async () => {
  const { s, admin } = await site(['Nikon_D70.jpg']);
  const cookie = admin.cookieHeader();
  const made = await createBackup({ dataDir: s.dataDir });
  const oldSecret = fs.readFileSync(path.join(s.dataDir, 'session-secret'), 'utf8');
  await s.close();
  const plain = path.join(tempDir('wedding-plain-'), 'site.tar.gz');
  assert.equal(spawnSync('tar', ['czf', plain, '-C', s.dataDir, 'wedding.db', 'session-secret', 'media']).status, 0);
  assert.ok(countSessions(path.join(s.dataDir, 'wedding.db')) > 0, 'the plain tar holds a session');
  for (const archive of [made.archive, plain]) {
    const dir = tempDir('wedding-restored-');
    await restoreBackup({ archive, dataDir: dir });
    assert.ok(!fs.existsSync(path.join(dir, 'session-secret')), 'no secret comes back');
    assert.equal(countSessions(path.join(dir, 'wedding.db')), 0);
    const r = await startTestServer({}, dir);
    try {
      assert.notEqual(fs.readFileSync(path.join(dir, 'session-secret'), 'utf8'), oldSecret);
      const me = await fetch(`${r.url}/admin/api/me`, { headers: { cookie } });
      assert.equal(me.status, 401, 'the old cookie signs nobody in');
      const fresh = new TestClient(r.url);
      await fresh.login();
      assert.equal((await fresh.get('/admin/api/me')).status, 200);
    } finally {
      await r.close();
    }
  }
});

/** Makes site B's archive big (padding files among its derivatives), so its unpacking takes a while. */
async function bigArchive(): Promise<string> {
  const { s } = await site(['Pentax_K10D.jpg']);
  const pad = path.join(s.ctx.paths.derived, 'padding');
  fs.mkdirSync(pad, { recursive: true });
  for (let i = 0; i < 4; i++) fs.writeFileSync(path.join(pad, `pad-${i}.bin`), crypto.randomBytes(16 * 1024 * 1024));
  const { archive } = await createBackup({ dataDir: s.dataDir });
  await s.close();
  return archive;
}

test('restore --force killed while unpacking leaves the old site as it was, and it starts and serves', async () => {
  const archive = await bigArchive();
  const { s, ids } = await site(['Canon_40D.jpg', 'Fujifilm_FinePix_E500.jpg']);
  const dir = s.dataDir;
  await s.close();
  const before = { db: sha(path.join(dir, 'wedding.db')), originals: fs.readdirSync(path.join(dir, 'media', 'originals')).sort() };

  const child = spawn(process.execPath, ['dist/server/restore.js', archive, '--data-dir', dir, '--force'], { cwd: ROOT, stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  // Kill it once it is writing the new site's media into its staging folder.
  const deadline = Date.now() + 60_000;
  let killedMidway = false;
  while (Date.now() < deadline && child.exitCode === null) {
    const stage = fs.readdirSync(dir).find((n) => n.startsWith('.restore-'));
    if (stage && fs.existsSync(path.join(dir, stage, 'media', 'derived', 'padding'))) {
      child.kill('SIGKILL');
      killedMidway = true;
      break;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  await exited;
  assert.ok(killedMidway, 'the restore was interrupted half way');

  assert.equal(sha(path.join(dir, 'wedding.db')), before.db);
  assert.deepEqual(fs.readdirSync(path.join(dir, 'media', 'originals')).sort(), before.originals);
  const again = await startTestServer({}, dir);
  try {
    assert.deepEqual(await photoIds(again.url), [...ids].sort());
    assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('.restore-')), [], 'the half-unpacked copy is cleared at start');
  } finally {
    await again.close();
  }
  // Finished this time: the new site replaces the old one and nothing of the swap is left.
  await restoreBackup({ archive, dataDir: dir, force: true });
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.startsWith('.restore-')), []);
  const restored = await startTestServer({}, dir);
  try {
    const now = await photoIds(restored.url);
    assert.equal(now.length, 1);
    assert.ok(!now.some((id) => ids.includes(id)));
  } finally {
    await restored.close();
  }
});

test('a restore killed half way through swapping the sites is undone at the next start: the old site comes back whole', async () => {
  const { s, ids } = await site(['Nikon_D70.jpg']);
  const dir = s.dataDir;
  await s.close();
  const db = sha(path.join(dir, 'wedding.db'));
  // The state such a crash leaves: the journal written, the old database and media moved aside,
  // the new database already in place, the new media not yet.
  const aside = path.join(dir, '.restore-old-test');
  fs.mkdirSync(aside);
  fs.writeFileSync(path.join(aside, 'swap-journal.json'), JSON.stringify({ names: ['wedding.db', 'wedding.db-wal', 'wedding.db-shm', 'session-secret', 'media'] }));
  for (const name of ['wedding.db', 'media', 'session-secret']) fs.renameSync(path.join(dir, name), path.join(aside, name));
  fs.writeFileSync(path.join(dir, 'wedding.db'), 'half of another site');

  const again = await startTestServer({}, dir);
  try {
    assert.deepEqual(await photoIds(again.url), ids);
    assert.ok(!fs.existsSync(aside));
  } finally {
    await again.close();
  }
  assert.notEqual(sha(path.join(dir, 'wedding.db')), 'half of another site');
  assert.ok(db);
});
