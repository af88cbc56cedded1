// The server killed (SIGKILL) in the middle of a multipart copy to the bucket, then started again:
// the copy carries on from the last part the bucket confirmed (no confirmed part is sent twice)
// and the object ends byte for byte the original.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../../server/db/open.js';
import { startBucket, until, type TestBucket } from '../helpers/bucket.js';
import { ServerProcess } from '../helpers/browser.js';
import { sample } from '../helpers/samples.js';
import { chunkedUpload, sha256, waitForStatus } from '../helpers/uploads.js';

let bucket: TestBucket;
let server: ServerProcess;

before(async () => {
  assert.ok(fs.existsSync('dist/server/main.js'), 'build first: node scripts/build.mjs');
  bucket = await startBucket();
});
after(async () => {
  await server?.stop();
  await bucket?.close();
});

test('kill -9 mid-multipart, then a restart: the copy resumes from its last confirmed part and ends byte for byte', async () => {
  bucket.mode = 'hold-parts';
  bucket.partsAllowed = 2;
  server = await new ServerProcess(undefined, bucket.env).start();
  // About 34 MB: five parts of 8 MiB.
  const data = Buffer.concat([fs.readFileSync(sample('hdr_iphone_hdr_YES.jpg')), crypto.randomBytes(33 * 1024 * 1024)]);
  const r = await chunkedUpload(server.url, data, { chunkSize: 5 * 1024 * 1024, filename: 'first-dance.jpg' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(await waitForStatus(server.url, r.body.photo_id), 'complete');

  const db = () => openDatabase(path.join(server.dataDir, 'wedding.db'), { readonly: true });
  const stored = (() => {
    const d = db();
    try {
      return (d.prepare('SELECT stored_path FROM photos WHERE id = ?').get(r.body.photo_id) as { stored_path: string }).stored_path;
    } finally {
      d.close();
    }
  })();
  const partsOf = () => bucket.requests.filter((q) => q.key === stored && q.query.includes('partNumber'));
  // Two parts confirmed and recorded, the third held in flight: now the process dies.
  await until(() => partsOf().some((q) => q.status === -2), 'the third part under way', 120_000);
  await until(() => {
    const d = db();
    try {
      const row = d.prepare('SELECT upload_id, parts FROM offsite_objects WHERE rel = ?').get(stored) as { upload_id: string | null; parts: string | null } | undefined;
      return !!row?.upload_id && JSON.parse(row.parts ?? '[]').length === 2;
    } finally {
      d.close();
    }
  }, 'two parts recorded');
  await server.stop('SIGKILL');
  const beforeRestart = partsOf().length;

  bucket.mode = 'pass';
  server = await new ServerProcess(server.dataDir, bucket.env, server.port).start();
  // Done when the server says so (the bucket answered the multipart's completion and a HEAD): s3rver
  // lists a key while it is still writing the object's bytes, so a listing is not "complete".
  await until(() => {
    const d = db();
    try {
      return (d.prepare('SELECT state FROM offsite_objects WHERE rel = ?').get(stored) as { state: string } | undefined)?.state === 'copied';
    } finally {
      d.close();
    }
  }, 'the object copied after the restart', 120_000);
  assert.equal(await bucket.sha256(stored), sha256(data), 'byte for byte');

  const numbers = (list: typeof bucket.requests) => list.filter((q) => q.status === 200).map((q) => Number(new URLSearchParams(q.query).get('partNumber')));
  const after = partsOf().slice(beforeRestart);
  assert.deepEqual(numbers(partsOf().slice(0, beforeRestart)).sort(), [1, 2], 'two parts confirmed before the kill');
  assert.deepEqual(numbers(after).sort(), [3, 4, 5], 'after the restart only the parts not yet confirmed are sent');
  const d = db();
  try {
    const row = d.prepare('SELECT state, sha256, upload_id FROM offsite_objects WHERE rel = ?').get(stored) as { state: string; sha256: string; upload_id: string | null };
    assert.deepEqual(row, { state: 'copied', sha256: sha256(data), upload_id: null });
  } finally {
    d.close();
  }
});
