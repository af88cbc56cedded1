import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { toolsOf } from '../helpers/processes.js';
import { serverWithAdmin, type TestClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { addPhoto } from './photos-fixture.js';

// Deleting a keepsake while it is being made stops it at once: its ffmpeg is killed, what it had
// written goes, and the next one is made as usual.
let s: TestServer;
let admin: TestClient;
const dir = tempDir('wedding-keepsakes-cancel-');

before(async () => {
  ({ s, admin } = await serverWithAdmin());
  for (let i = 0; i < 10; i++) {
    const file = path.join(dir, `photo-${i}.jpg`);
    await sharp({ create: { width: i % 3 ? 1600 : 1000, height: i % 3 ? 1000 : 1500, channels: 3, background: { r: 25 * i, g: 160 - 10 * i, b: 90 } } }).jpeg().toFile(file);
    await addPhoto(s, { file, visible: true });
  }
});
after(() => s.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const keepsakesDir = () => path.join(s.dataDir, 'media', 'keepsakes');
const filesOf = (id: string) => (fs.existsSync(keepsakesDir()) ? fs.readdirSync(keepsakesDir()).filter((n) => n.startsWith(id)) : []);

/** Waits (at most `ms`) until `check` holds; how long it took. */
async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<number> {
  const t = Date.now();
  while (!(await check())) {
    assert.ok(Date.now() - t < ms, `${what} within ${ms} ms`);
    await sleep(50);
  }
  return Date.now() - t;
}

/** Starts a one-minute film and waits until its ffmpeg runs; its id. */
async function filmUnderWay(): Promise<string> {
  const r = await admin.post('/admin/api/keepsakes', { kind: 'film', seconds: 60 });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const id = r.body.keepsake.id as string;
  await until(() => toolsOf(id).some((t) => t.args.includes('ffmpeg')), 60_000, 'the film\'s ffmpeg running');
  return id;
}

describe('keepsakes: deleting one that is being made', () => {
  test('stops its ffmpeg at once and removes its partial files; the next film starts and a book is made after it', async () => {
    const id = await filmUnderWay();
    assert.equal((await admin.get(`/admin/api/keepsakes/${id}`)).body.keepsake.status, 'making');
    assert.ok(filesOf(id).length > 0, 'its work folder exists while it is made');

    assert.equal((await admin.del(`/admin/api/keepsakes/${id}`)).status, 200);
    const gone = await until(() => toolsOf(id).length === 0, 3000, 'no process of the deleted film');
    await until(() => filesOf(id).length === 0, 3000, 'no file of the deleted film');
    assert.ok(gone < 3000, `ffmpeg gone after ${gone} ms`);
    assert.equal((await admin.get(`/admin/api/keepsakes/${id}`)).status, 404);
    assert.ok(!(await admin.get('/admin/api/keepsakes')).body.keepsakes.some((k: { id: string }) => k.id === id));

    // The queue goes on: a new film is started at once (deleted as well), then a book is made.
    const next = await filmUnderWay();
    assert.equal((await admin.del(`/admin/api/keepsakes/${next}`)).status, 200);
    await until(() => toolsOf(next).length === 0 && filesOf(next).length === 0, 3000, 'the second film stopped and removed');
    const book = await admin.post('/admin/api/keepsakes', { kind: 'book', paper: 'square' });
    assert.equal(book.status, 202);
    await s.services.processing.idle();
    const made = (await admin.get(`/admin/api/keepsakes/${book.body.keepsake.id}`)).body.keepsake;
    assert.equal(made.status, 'ready', made.error);
    assert.deepEqual(fs.readdirSync(keepsakesDir()).sort(), [`${made.id}.pdf`], 'only the book is left');
  });
});
