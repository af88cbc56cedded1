import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { serverWithAdmin, type TestClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { addPhoto } from './photos-fixture.js';

// Deleting a keepsake while it is being made stops it at once: its ffmpeg is killed, what it had
// written goes, and the next one is made as usual. While other work runs, a film's ffmpeg is
// stopped rather than kept paused (it would hold its memory), and the film goes on after.
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

/** The processes whose command line names the keepsake (its ffmpeg reads and writes `<id>.work/`). */
function toolsOf(id: string): { pid: number; args: string }[] {
  const out: { pid: number; args: string }[] = [];
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (args.includes(id)) out.push({ pid: Number(pid), args });
    } catch {
      /* ended meanwhile */
    }
  }
  return out;
}

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

describe('keepsakes: a film gives way to other work', () => {
  test('while another job runs its ffmpeg is stopped, not kept paused; once none does the film is made, its full length', async () => {
    const id = await filmUnderWay();
    // Another job running (as an upload's processing would be): the film gives way within the queue's look (every 500 ms).
    const db = s.writable();
    const now = Date.now();
    const job = db.prepare("INSERT INTO jobs (type, photo_id, status, run_after, created_at, updated_at) VALUES ('process-media', NULL, 'running', 0, ?, ?)").run(now, now).lastInsertRowid;
    await until(() => !toolsOf(id).some((t) => t.args.includes('ffmpeg')), 5000, "the film's ffmpeg gone while another job runs");
    await sleep(1500);
    assert.deepEqual(toolsOf(id), [], 'no ffmpeg of the film started again meanwhile, none kept stopped');
    assert.equal((await admin.get(`/admin/api/keepsakes/${id}`)).body.keepsake.status, 'making');

    db.prepare('DELETE FROM jobs WHERE id = ?').run(job);
    await s.services.processing.idle();
    const k = (await admin.get(`/admin/api/keepsakes/${id}`)).body.keepsake;
    assert.equal(k.status, 'ready', k.error);
    const file = path.join(dir, 'after-giving-way.mp4');
    fs.writeFileSync(file, Buffer.from(await (await admin.fetch(k.url)).arrayBuffer()));
    const seconds = Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString());
    assert.ok(Math.abs(seconds - 60) <= 3, `60 s within 5%: ${seconds}`);
  });
});
