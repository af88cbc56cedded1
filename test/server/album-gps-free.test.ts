import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { applyPatches, gpsPatches } from '../../server/export/gps-free.js';
import { tempDir } from '../helpers/temp.js';

/** exifr reads JPEG and PNG; a WebP's EXIF is read through sharp, as the TIFF block it holds. */
async function exifOf(bytes: Buffer, format: string): Promise<Buffer> {
  if (format !== 'webp') return bytes;
  const exif = (await sharp(bytes).metadata()).exif!;
  return exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? exif.subarray(6) : exif;
}

const GPS = { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' };

for (const format of ['jpeg', 'png', 'webp'] as const) {
  test(`a ${format} made by a phone app keeps its bytes and EXIF but loses its GPS`, async () => {
    const file = path.join(tempDir(), `gps.${format}`);
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3a6' } })
      [format]()
      .withExif({ IFD0: { Make: 'Test' }, IFD3: GPS })
      .toFile(file);
    const bytes = fs.readFileSync(file);
    assert.ok((await exifr.gps(await exifOf(bytes, format)))?.latitude, 'the source has GPS');
    const patches = await gpsPatches(file, `image/${format}`);
    applyPatches(bytes, 0, patches);
    assert.equal(bytes.length, fs.statSync(file).size);
    assert.equal((await exifr.gps(await exifOf(bytes, format)).catch(() => undefined))?.latitude, undefined);
    assert.equal((await exifr.parse(await exifOf(bytes, format), ['Make']))?.Make, 'Test');
    // Still a valid picture (a PNG whose chunk CRC were wrong would fail here).
    const pixels = await sharp(bytes, { failOn: 'error' }).raw().toBuffer();
    assert.equal(pixels.length, 64 * 48 * 3);
  });
}

test('a GIF and a picture without EXIF need no patches', async () => {
  const dir = tempDir();
  const gif = path.join(dir, 'a.gif');
  const plain = path.join(dir, 'b.jpg');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).gif().toFile(gif);
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toFile(plain);
  assert.deepEqual(await gpsPatches(gif, 'image/gif'), []);
  assert.deepEqual(await gpsPatches(plain, 'image/jpeg'), []);
});
