import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { startTestServer } from '../helpers/server.js';
import { makeVideo, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const abs = (rel: string) => path.join(s.dataDir, rel);
const probe = (file: string) =>
  JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file]).toString()) as {
    format: { tags?: Record<string, string>; duration: string };
    streams: { codec_type: string; tags?: Record<string, string> }[];
  };

const PHONE_TAGS = [
  '-metadata', 'creation_time=2026-06-20T16:30:00Z',
  '-metadata', 'location=+48.8577+002.2950/',
  '-metadata', 'com.apple.quicktime.make=Apple',
  '-metadata', 'com.apple.quicktime.model=iPhone 15',
  '-metadata', 'com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/',
  '-movflags', 'use_metadata_tags',
];

test('a phone video gets a poster thumbnail, its facts, and a public copy without location or creation metadata', async () => {
  const clip = makeVideo('mov', PHONE_TAGS, 3);
  const tags = probe(writeTemp(clip, 'src.mov')).format.tags ?? {};
  assert.ok(Object.keys(tags).some((k) => k.includes('location')), 'the source really carries a location');
  const r = await uploadFile(s.url, clip, 'IMG_0001.MOV');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
  const v = row(r.body.photo_id);
  assert.deepEqual([v.width, v.height], [320, 240]);
  assert.ok(Math.abs(v.duration - 3) < 0.2, String(v.duration));
  assert.equal(v.date_taken, '2026-06-20T16:30:00.000Z');
  assert.equal(v.camera_make, 'Apple');
  assert.equal(v.camera_model, 'iPhone 15');
  const poster = await sharp(abs(v.thumb_path)).metadata();
  assert.equal(poster.format, 'webp');
  assert.deepEqual([poster.width, poster.height], [320, 240]);
  assert.match(v.display_path, /display-v1\.mp4$/);
  const copy = probe(abs(v.display_path));
  const all = { ...copy.format.tags, ...Object.assign({}, ...copy.streams.map((x) => x.tags ?? {})) } as Record<string, string>;
  for (const key of Object.keys(all)) assert.doesNotMatch(key, /location|creation_time|make|model|ISO6709/i, `copy keeps ${key}`);
  assert.ok(copy.streams.some((x) => x.codec_type === 'video'));
  assert.ok(copy.streams.some((x) => x.codec_type === 'audio'));
  // moov before mdat: playback can start before the whole file arrives.
  const head = fs.readFileSync(abs(v.display_path)).subarray(0, 4096).toString('latin1');
  assert.ok(head.indexOf('moov') > 0 && (head.indexOf('mdat') === -1 || head.indexOf('moov') < head.indexOf('mdat')));
});

test('a rotated phone video is measured as displayed and its poster stands upright', async () => {
  // How phones record portrait: landscape frames plus a display rotation (set on a stream copy, as muxers store it).
  const src = writeTemp(makeVideo('mp4', [], 1), 'landscape.mp4');
  const rotated = path.join(s.dataDir, 'portrait.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', src, '-c', 'copy', '-metadata:s:v:0', 'rotate=90', rotated]);
  const clip = fs.readFileSync(rotated);
  const r = await uploadFile(s.url, clip, 'portrait.mp4');
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
  const v = row(r.body.photo_id);
  assert.deepEqual([v.width, v.height], [240, 320]);
  const poster = await sharp(abs(v.thumb_path)).metadata();
  assert.ok(poster.height! > poster.width!);
  // The web copy's frames are turned (no rotation left for a player to apply): it plays upright everywhere.
  const copy = probe(abs(v.display_path)) as unknown as { streams: { width?: number; height?: number; side_data_list?: { rotation?: number }[] }[] };
  assert.ok(!copy.streams.some((x) => x.side_data_list?.some((d) => d.rotation)), 'no rotation metadata left');
  assert.ok(copy.streams.some((x) => x.width === 240 && x.height === 320), 'portrait frames');
});

test('an AVI gets a poster and an MP4 web copy without metadata', async () => {
  const r = await uploadFile(s.url, makeVideo('avi', ['-metadata', 'title=Secret place'], 1), 'old-camera.avi');
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
  const v = row(r.body.photo_id);
  assert.match(v.display_path, /display-v1\.mp4$/);
  assert.ok(fs.existsSync(abs(v.thumb_path)));
  assert.equal(probe(abs(v.display_path)).format.tags?.title, undefined);
});

test('a file that only looks like a video ends in status error', async () => {
  const fake = Buffer.concat([makeVideo('mp4', [], 1).subarray(0, 64), Buffer.alloc(5000, 7)]);
  const r = await uploadFile(s.url, fake, 'broken.mp4');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'error');
  assert.match(row(r.body.photo_id).processing_error, /video could not be processed/);
});

function writeTemp(data: Buffer, name: string): string {
  const p = path.join(s.dataDir, name);
  fs.writeFileSync(p, data);
  return p;
}
