import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { composeOrientation } from '../../server/processing/jpeg-orientation.js';
import { sample } from '../helpers/samples.js';
import { startTestServer } from '../helpers/server.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const abs = (rel: string) => path.join(s.dataDir, rel);

async function uploaded(data: Buffer | string, name: string): Promise<any> {
  const r = await uploadFile(s.url, data, name);
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'complete');
  return row(r.body.photo_id);
}

/** The JPEG from its first marker after the APP0/APP1 segments: the image data proper. */
function afterAppSegments(file: Buffer): Buffer {
  let p = 2;
  while (file[p] === 0xff && file[p + 1] >= 0xe0 && file[p + 1] <= 0xef) p += 2 + file.readUInt16BE(p + 2);
  return file.subarray(p);
}

test('orientations compose clockwise on top of the current one', () => {
  assert.equal(composeOrientation(1, 90), 6);
  assert.equal(composeOrientation(6, 90), 3);
  assert.equal(composeOrientation(3, 90), 8);
  assert.equal(composeOrientation(8, 90), 1);
  assert.equal(composeOrientation(1, 270), 8);
  assert.equal(composeOrientation(2, 90), 7);
  assert.equal(composeOrientation(null, 180), 3);
});

test('rotating a JPEG rewrites only its EXIF orientation, swaps width and height and rebuilds derivatives', async () => {
  const r = await uploaded(sample('Canon_40D.jpg'), 'canon.jpg');
  const before = fs.readFileSync(abs(r.stored_path));
  await s.services.processing.rotate(r.id, 90);
  const after = row(r.id);
  const bytes = fs.readFileSync(abs(after.stored_path));
  assert.deepEqual(afterAppSegments(bytes), afterAppSegments(before), 'image data byte for byte');
  assert.equal(bytes.length, before.length);
  assert.equal((await exifr.parse(abs(after.stored_path), { translateValues: false })).Orientation, 6);
  assert.deepEqual([after.width, after.height], [r.height, r.width]);
  assert.equal(after.rotation, 90);
  assert.equal(after.orientation, 6);
  assert.equal(after.sha256, r.sha256, 'the upload identity stays for duplicate detection');
  assert.equal(after.derivative_version, r.derivative_version + 1);
  assert.ok(!fs.existsSync(abs(r.thumb_path)), 'the old thumbnail is gone');
  const thumb = await sharp(abs(after.thumb_path)).metadata();
  assert.ok(thumb.height! > thumb.width!, 'the new thumbnail is turned');
  await s.services.processing.rotate(r.id, 270);
  const back = row(r.id);
  assert.deepEqual([back.width, back.height], [r.width, r.height]);
  assert.equal(back.orientation, 1);
  assert.equal(back.rotation, 0);
});

test('rotating an EXIF-rotated JPEG turns it further from how it is displayed', async () => {
  const r = await uploaded(sample('orientation_landscape_6.jpg'), 'six.jpg');
  await s.services.processing.rotate(r.id, 180);
  const after = row(r.id);
  assert.equal(after.orientation, 8);
  assert.deepEqual([after.width, after.height], [600, 450]);
});

test('a JPEG without EXIF gets a minimal EXIF segment and keeps its image data', async () => {
  const data = await tinyImage('jpeg', 42, 120, 80);
  assert.equal((await sharp(data).metadata()).exif, undefined);
  const r = await uploaded(data, 'plain.jpg');
  await s.services.processing.rotate(r.id, 90);
  const after = row(r.id);
  const bytes = fs.readFileSync(abs(after.stored_path));
  assert.deepEqual(afterAppSegments(bytes), afterAppSegments(data));
  assert.equal((await sharp(bytes).metadata()).orientation, 6);
  assert.deepEqual([after.width, after.height], [80, 120]);
  assert.equal(after.file_size, bytes.length);
  assert.ok(after.file_size > data.length);
});

test('other formats are re-encoded turned and keep their format', async () => {
  const png = await uploaded(await tinyImage('png', 8, 100, 50), 'wide.png');
  await s.services.processing.rotate(png.id, 90);
  const after = row(png.id);
  const meta = await sharp(abs(after.stored_path)).metadata();
  assert.equal(meta.format, 'png');
  assert.deepEqual([meta.width, meta.height], [50, 100]);
  assert.deepEqual([after.width, after.height], [50, 100]);
  assert.equal(after.file_size, fs.statSync(abs(after.stored_path)).size);
  const webp = await uploaded(await tinyImage('webp', 9, 100, 50), 'wide.webp');
  await s.services.processing.rotate(webp.id, 270);
  assert.deepEqual([row(webp.id).width, row(webp.id).height], [50, 100]);
  assert.equal((await sharp(abs(webp.stored_path)).metadata()).format, 'webp');
});

test('rotating a video or an unknown photo is refused with a readable error', async () => {
  const v = await uploaded(makeVideo('mp4', [], 1), 'clip.mp4');
  await assert.rejects(s.services.processing.rotate(v.id, 90), /Only photos can be rotated/);
  await assert.rejects(s.services.processing.rotate('nope', 90), /No photo/);
});
