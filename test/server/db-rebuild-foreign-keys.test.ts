// What server/db/migrate.ts tells migrations about rebuilding a table inside the upgrade's one
// transaction, checked against SQLite itself: deferring foreign keys does not stop a DROP TABLE
// from cascading into the tables that refer to it; copying their rows aside does.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openSqlite } from '../../server/db/open.js';
import { tempDir } from '../helpers/temp.js';

const setup = `
  CREATE TABLE parent (id TEXT PRIMARY KEY, name TEXT);
  CREATE TABLE child (id INTEGER PRIMARY KEY, parent_id TEXT REFERENCES parent (id) ON DELETE CASCADE);
  INSERT INTO parent VALUES ('p1', 'a'), ('p2', 'b');
  INSERT INTO child (parent_id) VALUES ('p1'), ('p1'), ('p2');
`;
const rebuild = `
  CREATE TABLE parent_new (id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '');
  INSERT INTO parent_new SELECT id, coalesce(name, '') FROM parent;
  DROP TABLE parent;
  ALTER TABLE parent_new RENAME TO parent;
`;

function childrenAfter(sql: string): number {
  const db = openSqlite(path.join(tempDir('fk-rebuild-'), 'wedding.db'));
  try {
    db.exec(setup);
    db.exec(sql);
    return (db.prepare('SELECT count(*) AS n FROM child').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

test('a table rebuild with defer_foreign_keys still empties the tables that refer to it (ON DELETE CASCADE)', () => {
  assert.equal(childrenAfter(`BEGIN; PRAGMA defer_foreign_keys = ON; ${rebuild} COMMIT;`), 0, 'the cascade acted');
  // Inside a transaction (as every migration runs) PRAGMA foreign_keys = OFF is ignored.
  assert.equal(childrenAfter(`BEGIN; PRAGMA foreign_keys = OFF; ${rebuild} COMMIT;`), 0);
  // Outside one it would hold (the upgrade cannot do this: its migrations all run in one transaction).
  assert.equal(childrenAfter(`PRAGMA foreign_keys = OFF; BEGIN; ${rebuild} COMMIT;`), 3);
});

test('copying the referring rows aside and back keeps them through the rebuild', () => {
  const db = openSqlite(path.join(tempDir('fk-rebuild-'), 'wedding.db'));
  try {
    db.exec(setup);
    db.exec(`BEGIN; CREATE TEMP TABLE child_aside AS SELECT * FROM child; ${rebuild} INSERT INTO child SELECT * FROM child_aside; DROP TABLE child_aside; COMMIT;`);
    assert.deepEqual(db.prepare('SELECT parent_id FROM child ORDER BY id').all(), [{ parent_id: 'p1' }, { parent_id: 'p1' }, { parent_id: 'p2' }]);
    assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), []);
  } finally {
    db.close();
  }
});
