import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { sha256, uploadFile, waitForStatus } from '../helpers/uploads.js';
import { ffprobe, formatsServer, makeClip, topBoxes, type ClipKind } from './formats-fixtures.js';

const f = formatsServer();
const abs = f.abs;

/** Uploads a generated clip, waits until its web copy exists, approves it; the row and the original's bytes. */
async function uploaded(kind: ClipKind, name: string) {
  const bytes = fs.readFileSync(makeClip(kind, name));
  const row = await f.processed(bytes, name);
  assert.equal((await f.admin.post(`/admin/api/photos/${row.id}/approve`)).status, 200);
  return { id: row.id as string, bytes, row: f.row(row.id) };
}

/** What every web copy must be: H.264 8-bit 4:2:0 + AAC in MP4, index first, no rotation, SDR. */
function assertWebCopy(file: string, size: [number, number]) {
  const p = ffprobe(file);
  const v = p.streams.find((x) => x.codec_type === 'video')!;
  const a = p.streams.find((x) => x.codec_type === 'audio');
  assert.match(p.format.format_name, /mp4/);
  assert.equal(v.codec_name, 'h264');
  assert.equal(v.pix_fmt, 'yuv420p');
  assert.deepEqual([v.width, v.height], size);
  assert.ok(!v.side_data_list?.some((d) => d.rotation), 'no rotation left for the player to apply');
  assert.equal(v.tags?.rotate, undefined);
  assert.ok(!['arib-std-b67', 'smpte2084'].includes(v.color_transfer ?? ''), `SDR transfer, got ${v.color_transfer}`);
  assert.equal(a?.codec_name, 'aac');
  const boxes = topBoxes(file);
  assert.ok(boxes.indexOf('moov') !== -1 && boxes.indexOf('moov') < boxes.indexOf('mdat'), `moov before mdat: ${boxes.join(' ')}`);
  return v;
}

test('an iPhone HEVC 10-bit HLG .mov rotated 90 degrees gets an upright, tone-mapped H.264 web copy', async () => {
  const src = ffprobe(makeClip('hlg-mov')).streams.find((x) => x.codec_type === 'video')!;
  assert.deepEqual([src.codec_name, src.pix_fmt, src.color_transfer], ['hevc', 'yuv420p10le', 'arib-std-b67'], 'the source really is HDR HEVC');
  const { id, bytes, row: v } = await uploaded('hlg-mov', 'IMG_0420.MOV');
  assert.equal(v.content_type, 'video/quicktime');
  assert.deepEqual([v.width, v.height], [180, 320], 'measured as displayed');
  assert.ok(Math.abs(v.duration - 1) < 0.2, String(v.duration));
  assertWebCopy(abs(v.display_path), [180, 320]);
  const out = ffprobe(abs(v.display_path)).streams.find((x) => x.codec_type === 'video')!;
  assert.equal(out.color_transfer, 'bt709');
  // The poster is taken after rotation and tone mapping: portrait, and not the washed-out grey of untreated HLG.
  const poster = await sharp(abs(v.thumb_path)).metadata();
  assert.ok(poster.height! > poster.width!);
  assert.equal(sha256(fs.readFileSync(abs(v.stored_path))), sha256(bytes), 'the original stays byte for byte');

  const g = (await f.admin.get('/api/photos?limit=100')).body.photos.find((p: any) => p.id === id);
  assert.ok(g, 'listed once its web copy exists');
  assert.ok(Math.abs(g.duration - 1) < 0.2);
  const res = await fetch(f.s.url + g.backblaze_url);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'video/mp4');
  assert.equal(sha256(Buffer.from(await res.arrayBuffer())), sha256(fs.readFileSync(abs(v.display_path))), 'backblaze_url is the web copy');
});

test('a VP9/Opus WebM is accepted and re-encoded to H.264/AAC', async () => {
  const { row: v } = await uploaded('vp9-webm', 'clip.webm');
  assert.equal(v.content_type, 'video/webm');
  assert.match(v.stored_path, /\.webm$/);
  assertWebCopy(abs(v.display_path), [320, 180]);
});

test('an H.264 MP4 that already plays everywhere is copied, not re-encoded', async () => {
  const { bytes, row: v } = await uploaded('h264-mp4', 'clip.mp4');
  const web = abs(v.display_path);
  assertWebCopy(web, [320, 180]);
  // A stream copy keeps every encoded video frame as it was: same packets, same sizes.
  const packets = (f: string) => fs.readFileSync(f).length;
  assert.ok(Math.abs(packets(web) - bytes.length) < 4096, `copy ${packets(web)} bytes vs original ${bytes.length}`);
  const enc = ffprobe(web).streams.find((x) => x.codec_type === 'video')!;
  assert.equal(enc.tags?.encoder, undefined, 'no encoder tag: nothing re-encoded it');
});

test('an M4V is accepted as video/x-m4v and gets its web copy', async () => {
  const { row: v } = await uploaded('h264-m4v', 'clip.m4v');
  assert.equal(v.content_type, 'video/x-m4v');
  assertWebCopy(abs(v.display_path), [320, 180]);
});

test('a visible video is listed in the gallery only while its web copy exists', async () => {
  const { id, row: v } = await uploaded('h264-mp4', 'listed.mp4');
  const listed = async () => ((await fetch(`${f.s.url}/api/photos?limit=100`).then((r) => r.json())) as any).photos.some((p: any) => p.id === id);
  assert.equal(await listed(), true);
  // As while its re-encode is still under way.
  f.s.writable().prepare(`UPDATE photos SET display_path = NULL, status = 'processing' WHERE id = ?`).run(id);
  assert.equal(await listed(), false);
  f.s.writable().prepare(`UPDATE photos SET display_path = ?, status = 'complete' WHERE id = ?`).run(v.display_path, id);
  assert.equal(await listed(), true);
});

test('approved while its re-encode is under way, a video reaches the wall only with its web copy', async () => {
  const bytes = fs.readFileSync(makeClip('vp9-webm', 'wall'));
  const r = await uploadFile(f.s.url, bytes, 'wall.webm');
  assert.equal(r.status, 201);
  const id = r.body.photo_id as string;
  // Approved at once: the web copy does not exist yet.
  assert.equal((await f.admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  assert.equal(await waitForStatus(f.s.url, id), 'complete');
  const events = () =>
    (f.s.ctx.sqlite.prepare(`SELECT data FROM events WHERE type = 'photo-visible'`).all() as { data: string }[])
      .map((e) => JSON.parse(e.data))
      .filter((d) => d.id === id);
  for (let i = 0; i < 50 && events().length === 0; i++) await new Promise((res) => setTimeout(res, 100));
  const seen = events();
  assert.equal(seen.length, 1, 'announced once');
  assert.match(seen[0].backblaze_url, new RegExp(`/media/${id}/display`), 'with its web copy');
  assert.ok(seen[0].duration > 0.5);
});

test('a Matroska file that is not WebM is refused with 415', async () => {
  const mkv = path.join(path.dirname(makeClip('h264-mp4')), 'x.mkv');
  const { execFileSync } = await import('node:child_process');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=64x48:rate=5', mkv]);
  const r = await uploadFile(f.s.url, fs.readFileSync(mkv), 'x.webm');
  assert.equal(r.status, 415);
});
