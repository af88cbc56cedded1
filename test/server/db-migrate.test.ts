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
import { startTestServer, tempDir } from '../helpers/server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NAMES = Object.keys(MIGRATIONS);

/** Everything an upgrade may change: every table's, index's and trigger's definition, and the record of migrations. */
function schemaOf(db: Sqlite): { objects: unknown[]; migrations: string[] } {
  return {
    objects: db.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name`).all(),
    migrations: (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name),
  };
}

/** A database as the release before the last migration left it. */
async function oneMigrationBehind(file: string): Promise<Sqlite> {
  const db = openSqlite(file);
  await migrateToLatest(db, Object.fromEntries(NAMES.slice(0, -1).map((n) => [n, MIGRATIONS[n]])));
  return db;
}

test('a migration that fails half-way leaves the schema and the migration table unchanged, and the next start applies it', async () => {
  const dataDir = tempDir('wedding-migrate-fail-');
  const db = await oneMigrationBehind(path.join(dataDir, 'wedding.db'));
  insertBarePhoto(db, 'p1', 'before.jpg', 'image/jpeg');
  // Something in the way of the last statement of the last migration (its index name is taken):
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

/** Runs test/helpers/migrate-slowly.ts on `file`; `kill` ends it with SIGKILL once the slow migration is under way. */
function migrateSlowly(file: string, rows: number, kill: boolean): Promise<{ signal: string | null; code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/migrate-slowly.ts', file, String(rows)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      // A moment into the slow statement: its pages are being written, uncommitted.
      if (kill && out.includes('slow migration under way')) setTimeout(() => child.kill('SIGKILL'), 300);
    });
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

test('kill -9 in the middle of a slow upgrade leaves the database as it was; the next start upgrades it', async () => {
  const dataDir = tempDir('wedding-migrate-kill-');
  const file = path.join(dataDir, 'wedding.db');
  // The first release's schema, with a photo in it.
  const db = openSqlite(file);
  await migrateToLatest(db, { [NAMES[0]]: MIGRATIONS[NAMES[0]] });
  insertBarePhoto(db, 'p1', 'first-release.jpg', 'image/jpeg');
  const before = schemaOf(db);
  db.close();

  // Every later migration, then one that writes for many seconds: killed while it writes.
  const killed = await migrateSlowly(file, 50_000_000, true);
  assert.equal(killed.signal, 'SIGKILL', killed.out);
  assert.match(killed.out, /slow migration under way/);
  assert.doesNotMatch(killed.out, /applied:/);
  assert.ok(fs.statSync(`${file}-wal`).size > 1 << 20, 'killed while uncommitted pages were being written to the WAL');

  const after = openSqlite(file);
  try {
    assert.deepEqual(schemaOf(after), before, 'the upgrade left nothing behind');
    assert.equal(after.prepare('PRAGMA integrity_check').pluck().get(), 'ok');
  } finally {
    after.close();
  }

  // The next start (the same upgrade, this time left to finish) applies every migration.
  const again = await migrateSlowly(file, 1000, false);
  assert.equal(again.code, 0, again.out);
  const done = openSqlite(file);
  try {
    const { migrations } = schemaOf(done);
    assert.equal(migrations.length, NAMES.length + 1, again.out);
    assert.equal(done.prepare('SELECT count(*) FROM slow_test_rows').pluck().get(), 1000);
    assert.equal(done.prepare(`SELECT original_filename FROM photos WHERE id = 'p1'`).pluck().get(), 'first-release.jpg');
  } finally {
    done.close();
  }
});
