import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import sharp from 'sharp';
import { dataPaths } from '../../server/context.js';
import type { PhotoRow } from '../../server/db/schema.js';
import { buildDerivatives, type MediaDeps } from '../../server/processing/media.js';
import { sample } from '../helpers/samples.js';

// A photo's original is read from the disk once per processing: its bytes give the header, the
// one decode (upright, at the display size) from which the display image, the thumbnail and the
// measures are made, and the EXIF. The proof: the original is a named pipe that hands its bytes
// to the first reader only; a second open of it would wait for a writer that never comes.

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-read-once-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const paths = dataPaths(root);
fs.mkdirSync(paths.originals, { recursive: true });
// Generous for a loaded machine; a second read of the pipe waits until this limit.
const deps: MediaDeps = { paths, tools: { ffmpegPath: 'ffmpeg', ffprobePath: 'ffprobe', stepMs: 20_000 } };

function photoAt(id: string, stored: string): PhotoRow {
  return {
    id,
    stored_path: path.relative(root, stored),
    content_type: 'image/jpeg',
    derivative_version: 0,
    upload_timestamp: '2026-06-20T14:00:00.000Z',
    date_taken: null,
  } as unknown as PhotoRow;
}

/** Processes `bytes` stored behind a named pipe that gives them once. */
async function throughPipe(id: string, bytes: Buffer) {
  const pipe = path.join(paths.originals, `${id}.jpg`);
  assert.equal(spawnSync('mkfifo', [pipe]).status, 0, 'mkfifo');
  // Opening the pipe to write waits for its first reader; it is then written once and closed.
  const fed = fs.promises.writeFile(pipe, bytes).then(
    () => 'all',
    () => 'cut short',
  );
  const answer = await buildDerivatives(deps, photoAt(id, pipe)).then(
    (patch) => ({ patch, error: null }),
    (error: Error) => ({ patch: null, error }),
  );
  await releaseReaders(pipe);
  return { ...answer, fed: await fed };
}

/** A reader still waiting to open the pipe gets an empty file, so that nothing hangs on it. */
async function releaseReaders(pipe: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    try {
      fs.closeSync(fs.openSync(pipe, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody is waiting to read it
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The same file processed from an ordinary copy: what the pipe's answer must equal. */
async function fromFile(id: string, bytes: Buffer) {
  const file = path.join(paths.originals, `${id}.jpg`);
  fs.writeFileSync(file, bytes);
  return buildDerivatives(deps, photoAt(id, file));
}

const size = async (rel: string) => {
  const m = await sharp(path.join(root, rel)).metadata();
  return [m.format, m.width, m.height];
};

test('a phone JPEG is read once: derivatives, measures and EXIF all come from one read of the original', async () => {
  const bytes = fs.readFileSync(sample('hdr_iphone_hdr_YES.jpg'));
  const { patch, error, fed } = await throughPipe('pipe-phone', bytes);
  assert.equal(error, null, `processing needed the original more than once: ${error?.message}`);
  assert.equal(fed, 'all', 'the one read took the whole file');
  const plain = await fromFile('file-phone', bytes);
  assert.equal(patch!.status, 'complete');
  assert.deepEqual([patch!.width, patch!.height], [3264, 2448]);
  assert.deepEqual([patch!.date_taken, patch!.camera_make, patch!.camera_model], ['2015-04-10T20:12:23Z', 'Apple', 'iPhone 6']);
  assert.deepEqual(await size(patch!.display_path!), ['webp', 1920, 1440]);
  assert.deepEqual(await size(patch!.thumb_path!), ['webp', 480, 360]);
  for (const k of ['width', 'height', 'orientation', 'date_taken', 'camera_make', 'camera_model', 'phash', 'sharpness', 'quality_flags', 'shot_at'] as const) {
    assert.deepEqual(patch![k], plain[k], k);
  }
});

test('a JPEG turned by its EXIF orientation is read once and comes out upright', async () => {
  // Stored landscape with orientation 6: displayed as a portrait.
  const bytes = await sharp(sample('mobile_jolla.jpg')).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
  const stored = await sharp(bytes).metadata();
  assert.ok(stored.width! > stored.height!);
  const { patch, error, fed } = await throughPipe('pipe-turned', bytes);
  assert.equal(error, null, `processing needed the original more than once: ${error?.message}`);
  assert.equal(fed, 'all', 'the one read took the whole file');
  assert.equal(patch!.orientation, 6);
  assert.deepEqual([patch!.width, patch!.height], [stored.height, stored.width]);
  const [, w, h] = await size(patch!.display_path!);
  assert.ok((h as number) > (w as number), 'the display image is upright');
  assert.equal(Math.max(w as number, h as number), 1920);
  const plain = await fromFile('file-turned', bytes);
  assert.equal(patch!.phash, plain.phash);
  assert.equal(patch!.sharpness, plain.sharpness);
});
