// One long video does not hold every other video's web copy back (CONTRACT "No job waits
// forever"): the re-encode lane runs the clip with the least video left first, pausing a longer
// encode (SIGSTOP) and resuming it afterwards, with real ffmpeg on real clips.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { EncodeLane } from '../../server/processing/encode-lane.js';
import { run, type Pausable } from '../../server/processing/ffmpeg.js';
import { StepTimeoutError } from '../../server/processing/limits.js';
import { startTestServer, tempDir } from '../helpers/server.js';
import { chunkedUpload, makeVideo, uploadFile, waitForStatus } from '../helpers/uploads.js';

/** A clip that needs re-encoding (MPEG-4 Part 2): `seconds` of ffmpeg's testsrc2. */
function clip(seconds: number, size: string, rate: number): Buffer {
  const out = path.join(tempDir('wedding-lane-clip-'), 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=duration=${seconds}:size=${size}:rate=${rate}`, '-c:v', 'mpeg4', '-q:v', '20', out]);
  return fs.readFileSync(out);
}

const probeDuration = (file: string) => Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file]).toString());

/** The state letter (R, S, T…) of every encoder writing the web copy of `photoId`. */
function encoderStates(photoId: string): string[] {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).flatMap((pid) => {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('libx264') || !cmd.includes(photoId)) return [];
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return [stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)];
    } catch {
      return [];
    }
  });
}

test('a short clip gets its web copy while a long video is being encoded: the long encode is paused, then finishes whole', async () => {
  const s = await startTestServer({ PROCESSING_CONCURRENCY: '1' });
  try {
    const long = await chunkedUpload(s.url, clip(45, '1280x720', 30), { chunkSize: 5 * 1024 * 1024, filename: 'speeches.mp4' });
    assert.equal(long.status, 201);
    const longId = long.body.photo_id as string;
    const deadline = Date.now() + 120_000;
    while (!encoderStates(longId).includes('R') && !encoderStates(longId).includes('S')) {
      assert.ok(Date.now() < deadline, 'the long encode started');
      await new Promise((r) => setTimeout(r, 50));
    }

    const t0 = Date.now();
    const short = await uploadFile(s.url, makeVideo('avi', [], 2), 'first-kiss.avi');
    let pausedSeen = false;
    const watch = setInterval(() => (pausedSeen ||= encoderStates(longId).includes('T')), 50);
    try {
      assert.equal(await waitForStatus(s.url, short.body.photo_id, 120_000), 'complete');
    } finally {
      clearInterval(watch);
    }
    const shortWait = Date.now() - t0;
    const longNow = (await fetch(`${s.url}/api/photos/${longId}/status`).then((r) => r.json())) as { status: string };
    assert.equal(longNow.status, 'processing', 'the short clip did not wait for the long one');
    assert.ok(pausedSeen, 'the long encoder was paused (SIGSTOP) while the short one ran');

    assert.equal(await waitForStatus(s.url, longId, 600_000), 'complete');
    const row = s.ctx.sqlite.prepare('SELECT display_path FROM photos WHERE id = ?').get(longId) as { display_path: string };
    assert.ok(Math.abs(probeDuration(path.join(s.dataDir, row.display_path)) - 45) < 0.5, 'the paused encode finished whole');
    console.log(`short clip ready ${(shortWait / 1000).toFixed(1)} s after its upload, while a 45 s clip was encoding`);
  } finally {
    await s.close();
  }
});

test('a paused tool keeps what is left of its time limit: the pause does not count', async () => {
  let tool: Pausable | undefined;
  const sleeping = run('sleep', ['1.5'], { timeoutMs: 2000, onStart: (p) => (tool = p) });
  await new Promise((r) => setTimeout(r, 500));
  tool!.pause();
  await new Promise((r) => setTimeout(r, 2500)); // past the limit, paused
  tool!.resume();
  await sleeping; // 1 s of its 2 s limit was left: enough for the 1 s of sleep left
  const hung = run('sleep', ['5'], { timeoutMs: 300, name: 'sleep' });
  await assert.rejects(hung, (e) => e instanceof StepTimeoutError && /sleep took longer than 0.3 s/.test(e.message));
});

test('the lane: the least video left goes first, a longer one waits paused and resumes afterwards', () => {
  const calls: string[] = [];
  const tool = (name: string): Pausable => ({ pause: () => calls.push(`pause ${name}`), resume: () => calls.push(`resume ${name}`) });
  const lane = new EncodeLane(2);
  assert.equal(lane.admit(1, 600), true); // a 10-minute video
  lane.attach(1, tool('long'));
  lane.progress(1, 100);
  assert.equal(lane.admit(2, 30), true, 'a 30 s clip goes ahead of 500 s left');
  assert.deepEqual(calls, ['pause long']);
  lane.attach(2, tool('short'));
  assert.equal(lane.admit(3, 60), false, 'a 60 s clip waits for the 30 s one');
  assert.equal(lane.admit(4, 10), true, 'a 10 s clip goes ahead of the 30 s one');
  assert.deepEqual(lane.state, { running: 4, paused: [1, 2] });
  assert.equal(lane.admit(5, 1), false, 'two paused at most');
  lane.done(4);
  lane.idle(); // nothing queued was admitted: the one with the least left continues
  assert.deepEqual(lane.state, { running: 2, paused: [1] });
  assert.equal(calls.at(-1), 'resume short');
  lane.done(2);
  assert.equal(lane.admit(6, null), false, 'an unknown length never goes ahead of a known one');
  lane.idle();
  assert.deepEqual(lane.state, { running: 1, paused: [] });
  assert.equal(calls.at(-1), 'resume long');
});
