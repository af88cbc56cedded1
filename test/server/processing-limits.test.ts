// No job waits forever (CONTRACT "Nothing acknowledged is ever lost"): every step of processing
// has a time limit; a step over it is killed and counts as an attempt, and after three the file
// is "error". Real hung tools (scripts that sleep), a real slow decode, a real stopped worker.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, type TestServer } from '../helpers/server.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

const real = (tool: string): string => execFileSync('sh', ['-c', `command -v ${tool}`]).toString().trim();

/** An executable script standing in for `name` in a folder of its own. */
function fakeTool(name: string, body: string): { dir: string; file: string } {
  const dir = tempDir('wedding-fake-tool-');
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return { dir, file };
}

/**
 * A tool that never answers: `exec sleep`, so the process killed at the limit is the one that
 * sleeps; its length is unique to this test file, so its processes can be found.
 */
const SLEEP = `600.${process.pid}`;
const HANG = `exec sleep ${SLEEP}`;

/** Hung tools of this file still running (none may outlive its limit). */
function stillHanging(): string[] {
  return fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8') === `sleep\0${SLEEP}\0`;
    } catch {
      return false;
    }
  });
}

interface JobState {
  status: string;
  attempts: number;
  last_error: string | null;
}
const jobOf = (s: TestServer, photoId: string, type = 'process-media') =>
  s.ctx.sqlite.prepare('SELECT status, attempts, last_error FROM jobs WHERE photo_id = ? AND type = ?').get(photoId, type) as JobState;
const photoError = (s: TestServer, photoId: string) => s.ctx.sqlite.prepare('SELECT processing_error FROM photos WHERE id = ?').pluck().get(photoId) as string;

test('an ffprobe that hangs is killed at the limit, each time an attempt; after 3 the video is "error" and other files went on meanwhile', async () => {
  const hung = fakeTool('ffprobe', HANG);
  const s = await startTestServer({ FFPROBE_PATH: hung.file, PROCESSING_TIME_LIMIT_S: '2', PROCESSING_CONCURRENCY: '1' });
  try {
    const t0 = Date.now();
    const video = await uploadFile(s.url, makeVideo('mp4'), 'hangs.mp4');
    const photo = await uploadFile(s.url, await tinyImage('png', 31), 'fine.png');
    assert.equal(await waitForStatus(s.url, photo.body.photo_id, 30_000), 'complete', 'the one slot was free again after the limit');
    assert.equal(await waitForStatus(s.url, video.body.photo_id, 60_000), 'error');
    assert.ok(Date.now() - t0 < 40_000, `three tries of 2 s and their backoff, not forever (${Date.now() - t0} ms)`);
    assert.deepEqual(jobOf(s, video.body.photo_id), { status: 'failed', attempts: 3, last_error: 'ffprobe took longer than 2 s and was stopped' });
    assert.match(photoError(s, video.body.photo_id), /ffprobe took longer than 2 s and was stopped/);
    assert.deepEqual(stillHanging(), [], 'no hung tool is left running');
  } finally {
    await s.close();
  }
});

test('an encoder that hangs is killed at its limit (the step plus 30 s per second of video) and the video ends in "error"', async () => {
  // Real ffmpeg for the poster; the re-encode (libx264) never answers.
  const ffmpeg = real('ffmpeg');
  const hung = fakeTool('ffmpeg', `case "$*" in *libx264*) ${HANG};; esac\nexec ${ffmpeg} "$@"`);
  const s = await startTestServer({ FFMPEG_PATH: hung.file, FFPROBE_PATH: real('ffprobe'), PROCESSING_TIME_LIMIT_S: '5' });
  try {
    // 0.1 s of MJPEG in AVI: re-encoded; its limit is 5 s + 3 s.
    const video = await uploadFile(s.url, makeVideo('avi', [], 0.1), 'needs-encode.avi');
    assert.equal(await waitForStatus(s.url, video.body.photo_id, 90_000), 'error');
    const job = jobOf(s, video.body.photo_id, 'transcode');
    assert.ok(job, `a re-encode was queued: ${JSON.stringify(jobOf(s, video.body.photo_id))}`);
    assert.equal(job.status, 'failed');
    assert.equal(job.attempts, 2, 'a re-encode is tried twice');
    assert.match(job.last_error ?? '', /^ffmpeg took longer than 8 s and was stopped$/);
    assert.ok(s.ctx.sqlite.prepare('SELECT thumb_path FROM photos WHERE id = ?').pluck().get(video.body.photo_id), 'its poster was made before');
    assert.deepEqual(stillHanging(), []);
  } finally {
    await s.close();
  }
});

test('a heif-convert that hangs is killed at the limit; after 3 attempts the iPhone photo is "error"', async () => {
  const hung = fakeTool('heif-convert', HANG);
  const before = process.env.PATH;
  process.env.PATH = `${hung.dir}:${before}`; // the server and its media worker find this one first
  const s = await startTestServer({ PROCESSING_TIME_LIMIT_S: '2' });
  try {
    const up = await uploadFile(s.url, sample('heic_IMG_5195.HEIC'), 'IMG_5195.HEIC');
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 60_000), 'error');
    assert.deepEqual(jobOf(s, up.body.photo_id), { status: 'failed', attempts: 3, last_error: 'heif-convert took longer than 2 s and was stopped' });
    assert.deepEqual(stillHanging(), []);
  } finally {
    await s.close();
    process.env.PATH = before;
  }
});

test('a decode in the worker (sharp) over the limit is abandoned, the worker replaced, and after 3 attempts the photo is "error"', async () => {
  // 144 megapixels of interlaced PNG: about 3 s to decode and shrink on a quiet machine (an
  // interlaced image cannot be read row by row), against a limit of 1 s. Plain PNG of that size
  // decodes in under half a second when the machine is quiet, which is no test of the limit.
  const huge = await sharp({ create: { width: 12000, height: 12000, channels: 3, background: '#88aa66' } }).png({ compressionLevel: 1, progressive: true }).toBuffer();
  const s = await startTestServer({ PROCESSING_TIME_LIMIT_S: '1' });
  try {
    const up = await uploadFile(s.url, huge, 'huge.png');
    assert.equal(up.status, 201);
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 60_000), 'error');
    assert.deepEqual(jobOf(s, up.body.photo_id), { status: 'failed', attempts: 3, last_error: 'Making the thumbnails took longer than 1 s and was stopped' });
    // A fresh worker takes the next file.
    const next = await uploadFile(s.url, await tinyImage('png', 32), 'small.png');
    assert.equal(await waitForStatus(s.url, next.body.photo_id, 30_000), 'complete');
  } finally {
    await s.close();
  }
});

/** The media worker's process: the server's child running media-worker. */
function workerPid(): number | undefined {
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('media-worker')) return Number(pid);
    } catch {
      /* gone */
    }
  }
  return undefined;
}

test('a media worker that stops answering (SIGSTOP) is replaced with its tools after the limit; the file counts one attempt and then completes', async () => {
  // An ffprobe that hangs the first time (and says so), so the worker surely holds the file when
  // it is stopped: a stopped worker cannot kill its tool at the limit itself.
  const marks = tempDir('wedding-marks-');
  const slow = fakeTool('ffprobe', `if [ ! -e ${marks}/first ]; then touch ${marks}/first; ${HANG}; fi\nexec ${real('ffprobe')} "$@"`);
  const s = await startTestServer({ FFPROBE_PATH: slow.file, PROCESSING_TIME_LIMIT_S: '4' });
  let stopped: number | undefined;
  try {
    const up = await uploadFile(s.url, makeVideo('mp4'), 'clip.mp4');
    const deadline = Date.now() + 60_000;
    while (!fs.readdirSync(marks).length || !(stopped = workerPid())) {
      assert.ok(Date.now() < deadline, 'the worker took the file');
      await new Promise((r) => setTimeout(r, 20));
    }
    process.kill(stopped, 'SIGSTOP');
    assert.equal(await waitForStatus(s.url, up.body.photo_id, 90_000), 'complete');
    assert.equal(jobOf(s, up.body.photo_id).attempts, 2, 'the stopped worker cost one attempt');
    assert.throws(() => process.kill(stopped!, 0), 'the stopped worker was killed');
    assert.deepEqual(stillHanging(), [], 'and the tool it had started with it');
    assert.notEqual(workerPid(), stopped);
  } finally {
    if (stopped) {
      try {
        process.kill(stopped, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await s.close();
  }
});
