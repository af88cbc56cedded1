// The server's SQLite connections checkpoint their WAL every WAL_AUTOCHECKPOINT_PAGES pages, not
// SQLite's 1000: each checkpoint fsyncs, holding every write behind it, so under an upload rush fewer is better.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openSqlite, WAL_AUTOCHECKPOINT_PAGES } from '../../server/db/open.js';
import { tempDir } from '../helpers/temp.js';

test('the WAL grows past SQLite\'s default 1000 pages before a checkpoint, and is checkpointed by the limit', () => {
  const file = path.join(tempDir('wedding-wal-'), 'wal.db');
  const db = openSqlite(file);
  try {
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    const pageSize = (db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    db.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB)');
    const insert = db.prepare('INSERT INTO filler (data) VALUES (?)');
    const walPages = () => fs.statSync(`${file}-wal`).size / (pageSize + 24);
    // Commits of about 50 pages each, up to 2.5 times SQLite's default interval.
    const blob = Buffer.alloc(pageSize * 50 - 200, 7);
    for (let i = 0; i < 2500 / 50; i++) insert.run(blob);
    const rows = (db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n;
    // Had a checkpoint run at 1000 pages, the WAL would have been rewound and stayed near 1000.
    assert.ok(walPages() >= 2500, `WAL holds ${walPages().toFixed(0)} pages`);
    // Keep committing: past the limit a checkpoint runs and the WAL starts over from its head,
    // so the file stops growing a little past WAL_AUTOCHECKPOINT_PAGES.
    for (let i = 0; i < (WAL_AUTOCHECKPOINT_PAGES * 2) / 50; i++) insert.run(blob);
    assert.ok(walPages() < WAL_AUTOCHECKPOINT_PAGES + 200, `WAL is ${walPages().toFixed(0)} pages after passing the limit`);
    assert.equal((db.prepare('SELECT count(*) AS n FROM filler').get() as { n: number }).n, rows + (WAL_AUTOCHECKPOINT_PAGES * 2) / 50);
  } finally {
    db.close();
  }
});
