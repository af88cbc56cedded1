import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { openSqlite } from '../../server/db/open.js';
import { sample } from '../helpers/samples.js';
import { serverPort } from '../helpers/ports.js';
import { ADMIN, startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** An executable shell script standing in for a tool. */
function script(body: string): string {
  const file = path.join(tempDir('wedding-tool-'), 'ffprobe');
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** The server as its own process (the build `npm test` makes first, as `npm start` runs it), so a tool can kill it as a crash would. */
class Child {
  proc: ChildProcess | undefined;
  log = '';
  exited: Promise<NodeJS.Signals | number | null> = Promise.resolve(null);
  constructor(readonly dataDir: string, readonly port: number, readonly env: Record<string, string>) {}
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  /** Starts it; resolves true once healthy, false when it died first. */
  async start(): Promise<boolean> {
    const proc = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(this.port), HOST: '127.0.0.1', DATA_DIR: this.dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', PROCESSING_CONCURRENCY: '1', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.proc = proc;
    proc.stdout!.on('data', (d) => (this.log += d));
    proc.stderr!.on('data', (d) => (this.log += d));
    this.exited = new Promise((resolve) => proc.once('exit', (code, signal) => resolve(signal ?? code)));
    // Generous: a loaded machine can take many seconds to start any server.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null || proc.signalCode !== null) return false;
      const ok = await fetch(this.url + '/api/health').then((r) => r.ok, () => false);
      if (ok) return true;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the server did not start: ${this.log}`);
  }
  alive(): boolean {
    return !!this.proc && this.proc.exitCode === null && this.proc.signalCode === null;
  }
  async stop(): Promise<void> {
    if (this.alive()) this.proc!.kill('SIGTERM');
    await this.exited;
  }
}

test('a file whose processing crashes the media worker is tried 3 times, then it is "error"; the server never stops and other files go on', async () => {
  // A decoder that crashes the process that started it: the media worker, every time.
  const killer = script('kill -9 $PPID; sleep 5');
  const s = await startTestServer({ FFPROBE_PATH: killer, PROCESSING_CONCURRENCY: '1' });
  try {
    const up = await uploadFile(s.url, makeVideo('mp4'), 'deadly.mp4');
    assert.equal(up.status, 201);
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 60_000), 'error');
    const job = s.ctx.sqlite.prepare('SELECT status, attempts, last_error FROM jobs WHERE photo_id = ?').get(up.body.photo_id) as { status: string; attempts: number; last_error: string };
    assert.deepEqual({ status: job.status, attempts: job.attempts }, { status: 'failed', attempts: 3 });
    assert.match(job.last_error, /stopped while working on this file/);
    const admin = new TestClient(s.url);
    await admin.login();
    const photos = (await admin.get('/admin/api/photos?show_all=true')).body.photos as { id: string; status: string; processing_error: string | null }[];
    assert.match(photos.find((p) => p.id === up.body.photo_id)?.processing_error ?? '', /stopped while working on this file/);
    // A new worker takes the next file.
    const next = await uploadFile(s.url, await tinyImage('png', 12), 'fine.png');
    assert.equal(await waitForStatus(s.url, next.body.photo_id), 'complete');
  } finally {
    await s.close();
  }
});

test('a file whose processing kills the server is tried at most 3 times across restarts, then it is "error" and the server runs on', async () => {
  // A decoder that crashes the server itself: the "ffprobe" kills its parent's parent (the media
  // worker's server), as running out of memory would.
  const killer = script("kill -9 $(cut -d' ' -f4 /proc/$PPID/stat); sleep 5");
  const dataDir = tempDir('wedding-crash-');
  const server = new Child(dataDir, serverPort(), { FFPROBE_PATH: killer });
  assert.equal(await server.start(), true, server.log);
  // The job may start, and the server die, before the answer is on its way: the row tells the id.
  await uploadFile(server.url, makeVideo('mp4'), 'deadly.mp4').catch(() => undefined);
  assert.equal(await server.exited, 'SIGKILL', 'the tool killed the server');
  const db = openSqlite(path.join(dataDir, 'wedding.db'));
  const photoId = (db.prepare('SELECT id FROM photos').pluck().get() as string | undefined) ?? '';
  db.close();
  assert.ok(photoId, 'the upload was stored before the crash');

  let restarts = 0;
  for (;;) {
    assert.ok(restarts < 5, `restarted ${restarts} times without giving up: ${server.log}`);
    restarts++;
    if (!(await server.start())) continue; // it died again while starting
    // Up: it either dies again within a few seconds or has given the file up.
    const status = waitForStatus(server.url, photoId, 15_000).catch(() => 'died');
    const outcome = await Promise.race([server.exited.then(() => 'died'), status]);
    if (outcome === 'died') continue;
    assert.equal(outcome, 'error');
    break;
  }
  try {
    assert.equal(restarts, 3, 'three tries, each ended by a crash, then the fourth start gives up');
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(server.alive(), 'the server keeps running');
    const admin = new TestClient(server.url);
    await admin.login();
    const photos = (await admin.get('/admin/api/photos?show_all=true')).body.photos as { id: string; status: string }[];
    assert.equal(photos.find((p) => p.id === photoId)?.status, 'error');
    // Other work goes on.
    const next = await uploadFile(server.url, await tinyImage('png', 11), 'fine.png');
    assert.equal(await waitForStatus(server.url, next.body.photo_id), 'complete');
  } finally {
    await server.stop();
  }
  const after = openSqlite(path.join(dataDir, 'wedding.db'));
  try {
    const job = after.prepare('SELECT status, attempts, last_error FROM jobs WHERE photo_id = ?').get(photoId) as { status: string; attempts: number; last_error: string };
    assert.equal(job.status, 'failed');
    assert.equal(job.attempts, 3);
    assert.match(job.last_error, /stopped while working on this file/);
  } finally {
    after.close();
  }
});

test('a tool that is not installed: its files wait without spending attempts, are shown waiting for it, and go on once it is installed', async () => {
  const toolDir = tempDir('wedding-missing-tool-');
  const ffprobe = path.join(toolDir, 'ffprobe'); // not there yet
  const s = await startTestServer({ FFPROBE_PATH: ffprobe });
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    const up = await uploadFile(s.url, makeVideo('mp4'), 'clip.mp4');
    assert.equal(up.status, 201);
    const job = () => s.ctx.sqlite.prepare('SELECT status, attempts, last_error, updated_at FROM jobs WHERE photo_id = ?').get(up.body.photo_id) as { status: string; attempts: number; last_error: string | null; updated_at: number };
    const deadline = Date.now() + 15_000;
    while (!job().last_error && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.equal(job().last_error, 'Waiting for ffprobe: it is not installed');
    // It waits: not retried in a loop (the row does not change), no attempt spent, not marked broken.
    const parked = job();
    await new Promise((r) => setTimeout(r, 3000));
    assert.deepEqual(job(), parked);
    assert.deepEqual({ status: parked.status, attempts: parked.attempts }, { status: 'queued', attempts: 0 });
    const status = (await fetch(`${s.url}/api/photos/${up.body.photo_id}/status`).then((r) => r.json())) as { status: string };
    assert.equal(status.status, 'processing');
    // Admins are told what it waits for.
    const listed = (await admin.get('/admin/api/photos?show_all=true')).body.photos as { id: string; waiting_for: string | null }[];
    assert.equal(listed.find((p) => p.id === up.body.photo_id)?.waiting_for, 'ffprobe');
    const dashboard = (await admin.get('/admin/api/dashboard')).body as { missing_tools: unknown[] };
    assert.deepEqual(dashboard.missing_tools, [{ tool: 'ffprobe', needed_for: 'videos', waiting_files: 1 }]);
    // The tool arrives (the admin installs it): found by the next look (every 30 s), without a restart.
    fs.symlinkSync(execPathOf('ffprobe'), ffprobe);
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 90_000), 'complete');
    assert.deepEqual((await admin.get('/admin/api/dashboard')).body.missing_tools, []);
  } finally {
    await s.close();
  }
});

function execPathOf(tool: string): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = path.join(dir, tool);
    if (fs.existsSync(p)) return p;
  }
  throw new Error(`${tool} not on PATH`);
}

test('regenerate-all: a second call while one runs is 409; a long run answers early with running:true and goes on in the queue', async () => {
  // ffprobe that takes 2 s: regenerating the video outlasts the 1 s answer time set here.
  const slow = script(`sleep 2; exec ${execPathOf('ffprobe')} "$@"`);
  const s = await startTestServer({ FFPROBE_PATH: slow, REGENERATE_ANSWER_S: '1' });
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    const image = await uploadFile(s.url, sample('Canon_40D.jpg'), 'a.jpg');
    const video = await uploadFile(s.url, makeVideo('mp4'), 'b.mp4');
    for (const u of [image, video]) assert.equal(await waitForStatus(s.url, u.body.photo_id), 'complete');

    const t0 = Date.now();
    const [a, b] = await Promise.all([admin.post('/admin/api/photos/regenerate-all-thumbnails'), admin.post('/admin/api/photos/regenerate-all-thumbnails')]);
    assert.deepEqual([a.status, b.status].sort(), [200, 409]);
    const refused = a.status === 409 ? a : b;
    const answered = a.status === 200 ? a : b;
    assert.deepEqual(refused.body, { success: false, error: 'Thumbnails are already being regenerated.', code: 'conflict' });
    assert.equal(answered.body.success, true);
    assert.equal(answered.body.running, true, JSON.stringify(answered.body));
    assert.ok(Date.now() - t0 < 1900, 'answered at the configured time, before the work ended');
    assert.ok(answered.body.statistics.processed < 2);
    // Still running: still refused.
    assert.equal((await admin.post('/admin/api/photos/regenerate-all-thumbnails')).status, 409);

    await s.services.processing.idle();
    const jobs = s.ctx.sqlite.prepare("SELECT type, status FROM jobs WHERE type LIKE 'regenerate%' ORDER BY id").all() as { type: string; status: string }[];
    assert.deepEqual(jobs, [
      { type: 'regenerate-all', status: 'done' },
      { type: 'regenerate', status: 'done' },
      { type: 'regenerate', status: 'done' },
    ]);
    // Finished: a new run may start.
    const again = await admin.post('/admin/api/photos/regenerate-all-thumbnails');
    assert.equal(again.status, 200);
    await s.services.processing.idle();
  } finally {
    await s.close();
  }
});
