import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { sniff } from '../../server/uploads/sniff.js';
import { sample } from '../helpers/samples.js';
import { sha256, uploadFile, waitForStatus } from '../helpers/uploads.js';
import { formatsServer } from './formats-fixtures.js';

const f = formatsServer();
const { abs, row, processed } = f;

/** Derivatives every browser shows: WebP, no metadata, the long side within its size, as displayed. */
async function assertDerivatives(p: any, portrait: boolean) {
  for (const [file, px] of [[p.thumb_path, 480], [p.display_path, 1920]] as const) {
    const m = await sharp(abs(file)).metadata();
    assert.equal(m.format, 'webp');
    assert.equal(m.exif, undefined, 'no EXIF (no GPS, no serials) in what guests see');
    assert.equal(m.orientation, undefined, 'upright pixels, nothing left to rotate');
    assert.equal(Math.max(m.width!, m.height!), Math.min(px, Math.max(p.width, p.height)));
    assert.equal(m.height! > m.width!, portrait, `${file} portrait=${portrait}`);
  }
}

const HEIC = [
  // [fixture, displayed width x height, camera, date taken]
  ['heic_IMG_5195.HEIC', [2566, 3313], 'iPhone 11 Pro Max', '2021-04-11T15:47:53-05:00'],
  // Stored landscape with the container's rotation (irot) and EXIF Orientation 6: applied once.
  ['heic_mobile_iphone_13_pro_max.HEIC', [3024, 4032], 'iPhone 13 Pro Max', '2022-02-16T12:55:41+01:00'],
] as const;

for (const [name, size, model, date] of HEIC) {
  test(`iPhone HEIC ${name}: accepted, measured as displayed, EXIF read, upright WebP derivatives, original kept`, async () => {
    const bytes = fs.readFileSync(sample(name));
    const p = await processed(bytes, name);
    assert.equal(p.content_type, 'image/heic');
    assert.match(p.stored_path, /\.heic$/);
    assert.deepEqual([p.width, p.height], size);
    assert.equal(p.camera_make, 'Apple');
    assert.equal(p.camera_model, model);
    assert.equal(p.date_taken, date);
    await assertDerivatives(p, true);
    assert.equal(sha256(fs.readFileSync(abs(p.stored_path))), sha256(bytes), 'the original stays byte for byte');
    assert.deepEqual(fs.readdirSync(path.dirname(abs(p.thumb_path))).filter((n) => n.startsWith('decode')), [], 'no decoder leftovers');
    // Admins download the original itself.
    const d = await f.admin.get(`/admin/api/photos/${p.id}/download`);
    const res = await f.admin.fetch(new URL(d.body.download_url, f.s.url).pathname + new URL(d.body.download_url, f.s.url).search);
    assert.equal(res.headers.get('content-type'), 'image/heic');
    assert.equal(sha256(Buffer.from(await res.arrayBuffer())), sha256(bytes));
  });
}

test('an AVIF made by sharp (turned by its container and EXIF orientation 6) is measured and shown upright, once', async () => {
  const avif = await sharp({ create: { width: 120, height: 80, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: { Make: 'Pixel', Model: 'Pixel 9' } })
    .avif({ quality: 60 })
    .toBuffer();
  assert.deepEqual(sniff(avif.subarray(0, 64)), { mime: 'image/avif', ext: 'avif' });
  const p = await processed(avif, 'PXL_0001.avif');
  assert.equal(p.content_type, 'image/avif');
  assert.deepEqual([p.width, p.height], [80, 120]);
  assert.equal(p.camera_model, 'Pixel 9');
  await assertDerivatives(p, true);
  assert.equal(sha256(fs.readFileSync(abs(p.stored_path))), sha256(avif));
});

test('magic bytes decide: HEIF brands, M4V and WebM are recognised, whatever the name says', () => {
  const ftyp = (major: string, ...compat: string[]) => {
    const b = Buffer.alloc(16 + 4 * compat.length + 16);
    b.writeUInt32BE(16 + 4 * compat.length, 0);
    b.write('ftyp', 4, 'latin1');
    b.write(major, 8, 'latin1');
    compat.forEach((c, i) => b.write(c, 16 + 4 * i, 'latin1'));
    return b;
  };
  assert.equal(sniff(ftyp('heic', 'mif1', 'heic'))?.mime, 'image/heic');
  assert.equal(sniff(ftyp('mif1', 'mif1', 'heic'))?.mime, 'image/heic');
  assert.equal(sniff(ftyp('mif1', 'mif1', 'miaf'))?.mime, 'image/heif');
  assert.equal(sniff(ftyp('avif', 'mif1', 'miaf'))?.mime, 'image/avif');
  assert.equal(sniff(ftyp('M4V ', 'M4V ', 'mp42', 'isom'))?.mime, 'video/x-m4v');
  assert.equal(sniff(ftyp('isom', 'iso2', 'avc1', 'mp41'))?.mime, 'video/mp4');
  assert.equal(sniff(ftyp('qt  ', 'qt  '))?.mime, 'video/quicktime');
  const webm = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84]), Buffer.from('webm'), Buffer.alloc(40)]);
  assert.deepEqual(sniff(webm), { mime: 'video/webm', ext: 'webm' });
});

test('a HEIC whose image data is damaged ends in status error, and the server keeps running', async () => {
  const good = fs.readFileSync(sample('heic_IMG_5195.HEIC'));
  const broken = Buffer.concat([good.subarray(0, 4096), Buffer.alloc(20_000, 9)]);
  const r = await uploadFile(f.s.url, broken, 'broken.heic');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(f.s.url, r.body.photo_id), 'error');
  assert.match(row(r.body.photo_id).processing_error, /image could not be processed/);
  assert.equal((await fetch(`${f.s.url}/api/health`)).status, 200);
});
