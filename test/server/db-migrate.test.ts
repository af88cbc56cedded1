// Upgrades are atomic: every pending migration runs, with its row in kysely_migration, in one
// transaction, so a failure or a kill half-way leaves the database as it was and the next start
// tries again (CONTRACT "Nothing acknowledged is ever lost": upgrades).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { MIGRATIONS, migrateToLatest } from '../../server/db/migrate.js';
import { openSqlite, type Sqlite } from '../../server/db/open.js';
import { insertBarePhoto } from '../helpers/queue-db.js';
import { dataFolderOf, FIXTURE_USERS, releaseNames } from '../helpers/releases.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = Object.keys(MIGRATIONS);

/** Everything an upgrade may change: every table's, index's and trigger's definition, and the record of migrations. */
function schemaOf(db: Sqlite): { objects: unknown[]; migrations: string[] } {
  return {
    objects: db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all(),
    migrations: (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name),
  };
}

/** A database as the release before the guests migration left it (that migration and every later one pending). */
async function oneMigrationBehind(file: string): Promise<Sqlite> {
  const db = openSqlite(file);
  await migrateToLatest(db, Object.fromEntries(NAMES.slice(0, NAMES.indexOf('2026-11-22-0008-guests')).map((n) => [n, MIGRATIONS[n]])));
  return db;
}

test('a migration that fails half-way leaves the schema and the migration table unchanged, and the next start applies it', async () => {
  const dataDir = tempDir('wedding-migrate-fail-');
  const db = await oneMigrationBehind(path.join(dataDir, 'wedding.db'));
  insertBarePhoto(db, 'p1', 'before.jpg', 'image/jpeg');
  // Something in the way of the guests migration's last statement (its index name is taken):
  // every ALTER TABLE before it has run when it fails.
  db.exec('CREATE INDEX activity_guest ON users (id)');
  const before = schemaOf(db);
  await assert.rejects(startTestServer({}, dataDir), /activity_guest already exists/);
  assert.deepEqual(schemaOf(db), before, 'not one column added, nothing recorded');

  db.exec('DROP INDEX activity_guest'); // the cause goes away
  const s = await startTestServer({}, dataDir);
  try {
    const cols = (s.ctx.sqlite.prepare(`SELECT name FROM pragma_table_info('photos')`).all() as { name: string }[]).map((c) => c.name);
    assert.ok(cols.includes('guest_id'), 'the migration ran on the next start');
    assert.deepEqual(schemaOf(s.ctx.sqlite).migrations, NAMES);
    const photo = (await fetch(`${s.url}/api/photos/p1/status`).then((r) => r.json())) as { status: string };
    assert.equal(photo.status, 'processing', 'the row from before the upgrade is there');
  } finally {
    await s.close();
    db.close();
  }
});

/**
 * Runs test/helpers/migrate-slowly.ts on `file` and kills it (SIGKILL) once the slow migration
 * has written more than 1 MiB of uncommitted pages to the WAL.
 */
function migrateSlowly(file: string, rows: number): Promise<{ signal: string | null; code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/migrate-slowly.ts', file, String(rows)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const walSize = () => fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    const watch = setInterval(() => {
      if (out.includes('slow migration under way') && walSize() > 1 << 20) child.kill('SIGKILL');
    }, 20);
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      resolve({ code, signal, out });
    });
  });
}

test('kill -9 in the middle of a slow upgrade of the first release\'s data folder leaves it as it was; the next start upgrades it', async () => {
  const dataDir = dataFolderOf(releaseNames()[0]);
  const file = path.join(dataDir, 'wedding.db');
  const db = openSqlite(file);
  const before = schemaOf(db);
  const photos = db.prepare('SELECT * FROM photos ORDER BY id').all();
  db.close();
  assert.deepEqual(before.migrations, [NAMES[0]], 'the first release knew one migration');

  // Every later migration, then one that writes for many seconds: killed while it writes.
  const killed = await migrateSlowly(file, 50_000_000);
  assert.equal(killed.signal, 'SIGKILL', killed.out);
  assert.match(killed.out, /slow migration under way/);
  assert.doesNotMatch(killed.out, /applied:/);

  const wal = fs.statSync(`${file}-wal`).size;
  const after = openSqlite(file);
  try {
    assert.deepEqual(schemaOf(after), before, 'the upgrade left nothing behind');
    assert.ok(wal > 1 << 20, `killed while uncommitted pages were being written to the WAL (${wal} bytes)`);
    assert.equal(after.prepare('PRAGMA integrity_check').pluck().get(), 'ok');
    assert.deepEqual(after.prepare('SELECT * FROM photos ORDER BY id').all(), photos);
  } finally {
    after.close();
  }

  // The next start upgrades it and serves what the release stored.
  const s = await startTestServer({}, dataDir);
  try {
    assert.deepEqual(schemaOf(s.ctx.sqlite).migrations, NAMES);
    const admin = new TestClient(s.url);
    await admin.login('admin', FIXTURE_USERS.admin);
    const listed = (await admin.get('/admin/api/photos?show_all=true')).body.photos as { id: string }[];
    assert.equal(listed.length, photos.length);
  } finally {
    await s.close();
  }
});
