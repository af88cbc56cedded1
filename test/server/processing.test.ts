import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
before(async () => {
  s = await startTestServer();
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM photos WHERE id = ?').get(id) as any;
const abs = (rel: string) => path.join(s.dataDir, rel);

async function uploaded(file: string, name = path.basename(file)): Promise<any> {
  const r = await uploadFile(s.url, file, name);
  assert.ok(r.status === 201 || r.status === 200, JSON.stringify(r.body));
  await waitForStatus(s.url, r.body.photo_id);
  return row(r.body.photo_id);
}

/** Mean absolute pixel difference of two images scaled to the same small size. */
async function difference(a: string, b: string): Promise<number> {
  const small = (f: string) => sharp(f).rotate().resize(60, 45, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const [x, y] = await Promise.all([small(a), small(b)]);
  let d = 0;
  for (let i = 0; i < x.length; i++) d += Math.abs(x[i] - y[i]);
  return d / x.length;
}

test('camera make, model and date taken come from EXIF', async () => {
  const expected: [string, string, string, string][] = [
    ['Canon_40D.jpg', 'Canon', 'Canon EOS 40D', '2008-05-30T15:56:01Z'],
    ['Nikon_D70.jpg', 'NIKON CORPORATION', 'NIKON D70', '2008-03-15T09:52:01Z'],
    ['hdr_iphone_hdr_YES.jpg', 'Apple', 'iPhone 6', '2015-04-10T20:12:23Z'],
  ];
  for (const [file, make, model, date] of expected) {
    const r = await uploaded(sample(file));
    assert.equal(r.status, 'complete', file);
    assert.equal(r.camera_make, make, file);
    assert.equal(r.camera_model, model, file);
    assert.equal(r.date_taken, date, file);
  }
});

test('derivatives are WebP thumbnail and display image, sized for the grid and the viewer', async () => {
  const r = await uploaded(sample('mobile_jolla.jpg'));
  assert.equal(r.derivative_version, 1);
  assert.equal(r.thumb_path, `media/derived/${r.id}/thumb-v1.webp`);
  assert.equal(r.display_path, `media/derived/${r.id}/display-v1.webp`);
  const thumb = await sharp(abs(r.thumb_path)).metadata();
  const display = await sharp(abs(r.display_path)).metadata();
  assert.equal(thumb.format, 'webp');
  assert.equal(display.format, 'webp');
  assert.equal(Math.max(thumb.width!, thumb.height!), 480);
  assert.equal(Math.max(display.width!, display.height!), 1920);
  assert.equal(r.width / r.height > 1, thumb.width! / thumb.height! > 1);
});

test('EXIF-rotated photos get upright derivatives and their displayed width and height', async () => {
  const reference = await uploaded(sample('orientation_landscape_1.jpg'));
  assert.deepEqual([reference.width, reference.height], [600, 450]);
  for (const [file, orientation] of [['orientation_landscape_3.jpg', 3], ['orientation_landscape_6.jpg', 6], ['orientation_landscape_8.jpg', 8]] as const) {
    const r = await uploaded(sample(file));
    assert.equal(r.orientation, orientation, file);
    assert.deepEqual([r.width, r.height], [600, 450], file);
    const meta = await sharp(abs(r.thumb_path)).metadata();
    assert.ok(meta.width! > meta.height!, `${file} thumbnail is landscape`);
    assert.equal(meta.orientation ?? 1, 1);
    assert.ok((await difference(abs(r.thumb_path), abs(reference.thumb_path))) < 15, `${file} looks like the upright reference`);
    assert.ok((await difference(abs(r.display_path), abs(reference.display_path))) < 15, `${file} display is upright`);
  }
  const portrait = await uploaded(sample('orientation_portrait_6.jpg'));
  assert.deepEqual([portrait.width, portrait.height], [450, 600]);
  const meta = await sharp(abs(portrait.thumb_path)).metadata();
  assert.ok(meta.height! > meta.width!, 'portrait thumbnail stands upright');
});

test('no derivative of a photo with GPS carries a location or any EXIF', async () => {
  const original = await exifr.gps(sample('gps_DSCN0010.jpg'));
  assert.ok(original && typeof original.latitude === 'number', 'the sample really has GPS');
  const r = await uploaded(sample('gps_DSCN0010.jpg'));
  assert.equal(r.status, 'complete');
  for (const p of [r.thumb_path, r.display_path]) {
    const gps = await exifr.gps(abs(p)).catch(() => undefined);
    assert.equal(gps?.latitude, undefined, p);
    const meta = await sharp(abs(p)).metadata();
    assert.equal(meta.exif, undefined, `${p} has no EXIF at all`);
    assert.equal(meta.xmp, undefined);
  }
});

test('a damaged image ends in status error, stays stored, and the server keeps answering', async () => {
  const r = await uploaded(sample('corrupted.jpg'));
  assert.equal(r.status, 'error');
  assert.match(r.processing_error, /could not be processed/);
  assert.ok(fs.existsSync(abs(r.stored_path)));
  const job = s.ctx.sqlite.prepare('SELECT status, last_error FROM jobs WHERE photo_id = ?').get(r.id) as any;
  assert.equal(job.status, 'failed');
  assert.ok(job.last_error);
  assert.deepEqual((await new TestClient(s.url).get(`/api/photos/${r.id}/status`)).body, { success: true, status: 'error', duplicate_type: null });
  assert.equal((await fetch(`${s.url}/api/health`)).status, 200);
  await assert.rejects(s.services.processing.regenerate(r.id), (e: Error) => /could not be processed/.test(e.message));
  assert.equal(row(r.id).status, 'error');
});

test('malformed EXIF fails soft and a photo with only XMP completes without a camera', async () => {
  const bad = await uploaded(sample('invalid_image01088.jpg'));
  assert.equal(bad.status, 'complete');
  assert.ok(bad.width > 0 && fs.existsSync(abs(bad.thumb_path)));
  const xmp = await uploaded(sample('xmp_no_exif.jpg'));
  assert.equal(xmp.status, 'complete');
  assert.equal(xmp.camera_make, null);
  assert.equal(xmp.camera_model, null);
});

test('enqueue is idempotent per photo', async () => {
  const r = await uploaded(sample('Pentax_K10D.jpg'));
  await s.services.processing.enqueue(r.id);
  await s.services.processing.enqueue(r.id);
  const n = s.ctx.sqlite.prepare('SELECT count(*) AS n FROM jobs WHERE photo_id = ?').get(r.id) as { n: number };
  assert.equal(n.n, 1);
});

test('regenerate rebuilds derivatives under a new version and removes the old files', async () => {
  const r = await uploaded(sample('Panasonic_DMC-FZ30.jpg'));
  await s.services.processing.regenerate(r.id);
  const after = row(r.id);
  assert.equal(after.derivative_version, r.derivative_version + 1);
  assert.equal(after.status, 'complete');
  assert.ok(fs.existsSync(abs(after.thumb_path)) && fs.existsSync(abs(after.display_path)));
  assert.ok(!fs.existsSync(abs(r.thumb_path)) && !fs.existsSync(abs(r.display_path)));
  assert.deepEqual(fs.readdirSync(path.join(s.ctx.paths.derived, r.id)).sort(), [`display-v${after.derivative_version}.webp`, `thumb-v${after.derivative_version}.webp`]);
  await assert.rejects(s.services.processing.regenerate('no-such-photo'), /No photo/);
});
