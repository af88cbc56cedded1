// The server writes to SQLite from a worker thread (server/db-writer.ts) and reads on the main
// thread's own connection, so a write that waits on the database file never holds the requests.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, test } from 'node:test';
import { sql, type Generated, type Kysely } from 'kysely';
import sharp from 'sharp';
import { createKysely, openDatabase, openSqlite } from '../../server/db/open.js';
import { DatabaseWriter } from '../../server/db/writer.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { uploadFile } from '../helpers/uploads.js';
import { addPhoto } from './photos-fixture.js';

const closing: (() => Promise<void> | void)[] = [];
after(async () => {
  for (const c of closing.reverse()) await c();
});

/** A database file with a `notes` table, a reading connection (query_only) and the writer thread. */
function routed() {
  const file = path.join(tempDir('wedding-writer-'), 'w.db');
  const reader = openSqlite(file);
  reader.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
  reader.exec('PRAGMA query_only = ON');
  const writer = new DatabaseWriter({ file });
  const db = createKysely(reader, writer) as unknown as Kysely<{ notes: { id: Generated<number>; text: string } }>;
  closing.push(() => db.destroy());
  return { file, reader, db };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('writes go to the writer thread, reads to the main connection, and a read sees every write that has answered', async () => {
  const { reader, db } = routed();
  assert.throws(() => reader.prepare(`INSERT INTO notes (text) VALUES ('direct')`).run(), /readonly/i, 'the main connection cannot write');

  const inserted = await db.insertInto('notes').values({ text: 'first' }).executeTakeFirstOrThrow();
  assert.equal(inserted.insertId, 1n);
  const returned = await db.insertInto('notes').values({ text: 'second' }).returning(['id', 'text']).executeTakeFirstOrThrow();
  assert.deepEqual(returned, { id: 2, text: 'second' });
  const updated = await db.updateTable('notes').set({ text: 'SECOND' }).where('id', '=', 2).executeTakeFirstOrThrow();
  assert.equal(updated.numUpdatedRows, 1n);
  assert.deepEqual(await db.selectFrom('notes').select('text').orderBy('id').execute(), [{ text: 'first' }, { text: 'SECOND' }]);
  assert.equal((await sql<{ n: number }>`SELECT count(*) AS n FROM notes`.execute(db)).rows[0].n, 2);

  // SQLite's error, with its code, on this side of the thread.
  await assert.rejects(db.insertInto('notes').values({ text: 'first' }).execute(), (e: { code?: string; message: string }) => {
    assert.equal(e.code, 'SQLITE_CONSTRAINT_UNIQUE');
    assert.match(e.message, /UNIQUE constraint failed: notes\.text/);
    return true;
  });
});

test('a transaction runs whole on the writer: reads elsewhere neither wait for it nor see it before it commits; a failure rolls it back', async () => {
  const { db } = routed();
  const order: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const trx = db.transaction().execute(async (t) => {
    await t.insertInto('notes').values({ text: 'in the transaction' }).execute();
    // Inside, the transaction sees its own row.
    assert.equal((await t.selectFrom('notes').select('text').execute()).length, 1);
    order.push('inserted');
    await gate; // as a transaction awaiting file I/O would
    order.push('committing');
  });
  while (!order.includes('inserted')) await sleep(5);

  // A read outside answers while the transaction holds the writer, without its uncommitted row.
  assert.deepEqual(await db.selectFrom('notes').selectAll().execute(), []);
  order.push('read answered');
  // A lone write waits for the transaction to end; it never runs inside it.
  const lone = db.insertInto('notes').values({ text: 'after it' }).execute().then(() => order.push('lone write'));
  await sleep(50);
  assert.ok(!order.includes('lone write'), 'the lone write waited');
  release();
  await trx;
  await lone;
  assert.deepEqual(order, ['inserted', 'read answered', 'committing', 'lone write']);
  assert.deepEqual((await db.selectFrom('notes').select('text').orderBy('id').execute()).map((r) => r.text), ['in the transaction', 'after it']);

  await assert.rejects(
    db.transaction().execute(async (t) => {
      await t.insertInto('notes').values({ text: 'rolled back' }).execute();
      throw new Error('the caller failed');
    }),
    /the caller failed/,
  );
  assert.equal((await db.selectFrom('notes').select('text').where('text', '=', 'rolled back').execute()).length, 0);
  // The writer is free again.
  await db.insertInto('notes').values({ text: 'later' }).execute();
});

test('while another program holds the database\'s write lock, an upload waits and the gallery, statuses and stats answer meanwhile', async () => {
  const s = await startTestServer();
  closing.push(() => s.close());
  const shown = await addPhoto(s, { file: sample('Canon_40D.jpg'), visible: true });
  const guest = new TestClient(s.url);
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c0a060' } }).jpeg().toBuffer();

  // Another connection to the file takes the write lock until the reads below are answered (it is
  // let go by this event loop, which a write waiting on the main thread would hold: the reads would
  // then never come and the test would time out).
  const other = openDatabase(s.ctx.paths.database);
  closing.push(() => void other.close());
  other.exec('BEGIN IMMEDIATE');
  let locked = true;
  let uploadAnswered = false;
  const release = () => {
    if (!locked) return;
    other.exec('COMMIT');
    locked = false;
  };
  // At most 4 s: the upload's write gives up (503) after the busy timeout of 5 s.
  const cap = setTimeout(release, 4000);

  const upload = uploadFile(s.url, jpeg, 'during-lock.jpg').then((r) => ((uploadAnswered = true), { r, locked }));
  await sleep(100); // the upload's write is now waiting on the lock

  const reads = ['/api/photos?limit=20&offset=0', `/api/photos/${shown}/status`, '/api/stats', `/media/${shown}/thumb`];
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guest.fetch(reads[i % reads.length]).then(async (res) => ({ status: res.status, body: await res.arrayBuffer() }))));
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200));
  assert.equal(uploadAnswered, false, 'every read was answered while the upload still waited for the lock');
  clearTimeout(cap);
  release();

  const { r, locked: lockedAtAnswer } = await upload;
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(lockedAtAnswer, false, 'the upload was answered once the lock was let go');
  const gallery = await guest.fetch(`/api/photos/${r.body.photo_id}/status`);
  assert.equal(gallery.status, 200, 'the stored upload is readable');
});
