import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import zlib from 'node:zlib';
import crc32 from 'crc-32';
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

/** The coordinates the tests write, as they would appear in any text (ISO 6709 and decimal). */
const PLACE_TEXTS = ['48.8577', '+002.2950', '2.2950', '48.85'];
const holdsPlace = (bytes: Buffer) => PLACE_TEXTS.find((t) => bytes.includes(t));
const patched = async (file: string, type: string) => {
  const bytes = fs.readFileSync(file);
  applyPatches(bytes, 0, await gpsPatches(file, type));
  return bytes;
};
const ffmpeg = (args: string[]) => {
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', ...args]);
  assert.equal(r.status, 0, r.stderr?.toString());
};
const formatTags = (file: string) => {
  const r = spawnSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_entries', 'format_tags', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return (JSON.parse(r.stdout).format?.tags ?? {}) as Record<string, string>;
};
const decodes = (file: string) => spawnSync('ffmpeg', ['-v', 'error', '-xerror', '-i', file, '-f', 'null', '-']).status === 0;

/** An XMP packet saying where the file was made the way a drone does (mixed case, its own namespace). */
const DRONE_XMP =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description rdf:about="" xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/" drone-dji:GpsLatitude="+48.85770" drone-dji:GpsLongitude="+2.29500"/>' +
  '</rdf:RDF></x:xmpmeta>';

describe('videos', () => {
  const dir = tempDir();
  // What phones and apps write: Android's MediaMuxer (©xyz in udta), an MP4 (3GPP loci), a
  // named key (location), and the iPhone's QuickTime key with the metadata it sits beside.
  const videos: [string, string, string[]][] = [
    ['android.mov', 'video/quicktime', ['-metadata', 'location=+48.8577+002.2950/', '-f', 'mov']],
    ['loci.mp4', 'video/mp4', ['-metadata', 'location=+48.8577+002.2950/']],
    ['keyed.mp4', 'video/mp4', ['-movflags', 'use_metadata_tags', '-metadata', 'location=+48.8577+002.2950/']],
    ['iphone.mov', 'video/quicktime', ['-movflags', 'use_metadata_tags', '-metadata', 'com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/', '-metadata', 'com.apple.quicktime.make=Apple']],
  ];
  for (const [name, type, args] of videos) {
    test(`a ${name} goes out with its pictures and other metadata but no location`, async () => {
      const file = path.join(dir, name);
      ffmpeg([...args, file]);
      const tags = formatTags(file);
      assert.ok(Object.values(tags).some((v) => v.includes('48.8577')), `the source has a location: ${JSON.stringify(tags)}`);
      const bytes = await patched(file, type);
      assert.equal(bytes.length, fs.statSync(file).size, 'nothing moved');
      assert.equal(holdsPlace(bytes), undefined, 'no coordinates in the bytes');
      const out = path.join(dir, `out-${name}`);
      fs.writeFileSync(out, bytes);
      const after = formatTags(out);
      assert.ok(!Object.keys(after).some((k) => /location|xyz/i.test(k)), JSON.stringify(after));
      if (name === 'iphone.mov') assert.equal(after['com.apple.quicktime.make'], 'Apple', 'the other keys stay');
      assert.ok(decodes(out), 'still plays');
    });
  }

  test("a video's XMP that names a place is dropped; a video without a location is left as it is", async () => {
    const plain = path.join(dir, 'plain.mp4');
    ffmpeg([plain]);
    assert.deepEqual(await gpsPatches(plain, 'video/mp4'), []);
    // An XMP uuid box after the movie, as editing apps write it.
    const withXmp = path.join(dir, 'xmp.mp4');
    const xmp = Buffer.from(DRONE_XMP);
    const box = Buffer.alloc(24);
    box.writeUInt32BE(24 + xmp.length);
    box.write('uuid', 4, 'latin1');
    Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex').copy(box, 8);
    fs.writeFileSync(withXmp, Buffer.concat([fs.readFileSync(plain), box, xmp]));
    const bytes = await patched(withXmp, 'video/mp4');
    assert.equal(holdsPlace(bytes), undefined);
    assert.ok(!bytes.includes('GpsLatitude'));
    fs.writeFileSync(withXmp, bytes);
    assert.ok(decodes(withXmp));
  });
});

describe('XMP in any letter case and namespace', () => {
  for (const format of ['jpeg', 'png', 'webp'] as const) {
    test(`a ${format} with drone-dji:GpsLatitude in its XMP loses it`, async () => {
      const file = path.join(tempDir(), `drone.${format}`);
      await sharp({ create: { width: 32, height: 24, channels: 3, background: '#36a' } })[format]().withXmp(DRONE_XMP).toFile(file);
      // libvips writes a PNG's XMP compressed (zTXt).
      const texts = (b: Buffer) => (format === 'png' ? pngTexts(b) : [b]);
      assert.ok(texts(fs.readFileSync(file)).some((t) => t.includes('GpsLatitude')), 'the source carries it');
      const bytes = await patched(file, `image/${format}`);
      for (const t of texts(bytes)) assert.ok(!holdsPlace(t) && !t.includes('GpsLatitude'));
      assert.equal((await sharp(bytes, { failOn: 'error' }).raw().toBuffer()).length, 32 * 24 * 3);
    });
  }
});

/** A PNG chunk with its CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeInt32BE(crc32.buf(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** Every text a PNG's tEXt, zTXt and iTXt chunks hold, inflated, with raw profiles' hex decoded. */
function pngTexts(png: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let p = 8; p + 12 <= png.length; ) {
    const len = png.readUInt32BE(p);
    const type = png.toString('latin1', p + 4, p + 8);
    const data = png.subarray(p + 8, p + 8 + len);
    const nul = data.indexOf(0);
    let text: Buffer | undefined;
    if (type === 'tEXt') text = data.subarray(nul + 1);
    else if (type === 'zTXt') text = zlib.inflateSync(data.subarray(nul + 2));
    else if (type === 'iTXt') {
      const t = data.indexOf(0, data.indexOf(0, nul + 3) + 1) + 1;
      text = data[nul + 1] ? zlib.inflateSync(data.subarray(t)) : data.subarray(t);
    }
    if (text) {
      out.push(text);
      if (/^Raw profile type/.test(data.toString('latin1', 0, nul))) out.push(Buffer.from(text.toString('latin1').split('\n').slice(3).join('').replace(/\s/g, ''), 'hex'));
    }
    p += 12 + len;
  }
  return out;
}

test('PNG text chunks (XMP in iTXt, compressed or not; an EXIF profile in zTXt; a place in tEXt) lose the location, and the PNG stays valid', async () => {
  const dir = tempDir();
  const base = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#a63' } }).png().toBuffer();
  // The EXIF block a camera writes (with GPS), as ImageMagick stores it in a PNG: hex text.
  const jpegWithGps = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().withExif({ IFD0: { Make: 'Test' }, IFD3: GPS }).toBuffer();
  const exif = (await sharp(jpegWithGps).metadata()).exif!;
  assert.ok((await exifr.gps(exif.subarray(6)))?.latitude, 'the EXIF block has GPS');
  const hex = exif.toString('hex').replace(/(.{72})/g, '$1\n');
  const rawProfile = `\nexif\n${String(exif.length).padStart(8)}\n${hex}\n`;
  const cases: [string, Buffer][] = [
    ['iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(DRONE_XMP)])],
    ['iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\x01\0\0\0', 'latin1'), zlib.deflateSync(DRONE_XMP)])],
    ['zTXt', Buffer.concat([Buffer.from('Raw profile type exif\0\0', 'latin1'), zlib.deflateSync(rawProfile)])],
    ['tEXt', Buffer.from('Comment\0taken at Latitude 48.8577, Longitude 2.2950', 'latin1')],
  ];
  for (const [i, [type, data]] of cases.entries()) {
    const file = path.join(dir, `t${i}.png`);
    const iend = base.length - 12;
    const keep = chunk('tEXt', Buffer.from('Software\0a phone app', 'latin1'));
    fs.writeFileSync(file, Buffer.concat([base.subarray(0, iend), keep, chunk(type, data), base.subarray(iend)]));
    const before = pngTexts(fs.readFileSync(file));
    assert.ok(before.some((t) => holdsPlace(t) || t.includes('GpsLatitude')) || (await exifr.gps(before.at(-1)!.subarray(6)).catch(() => undefined))?.latitude, `case ${i}: the source names the place`);
    const bytes = await patched(file, 'image/png');
    assert.equal(bytes.length, fs.statSync(file).size, `case ${i}: nothing moved`);
    const texts = pngTexts(bytes);
    assert.equal(texts.find((t) => holdsPlace(t) || /gps/i.test(t.toString('latin1'))), undefined, `case ${i}: no text names the place`);
    for (const t of texts) assert.equal((await exifr.gps(t.subarray(6)).catch(() => undefined))?.latitude, undefined, `case ${i}: no EXIF with GPS`);
    assert.ok(texts.some((t) => t.toString('latin1') === 'a phone app'), `case ${i}: other text stays`);
    // libpng checks each chunk's CRC.
    assert.equal((await sharp(bytes, { failOn: 'error' }).raw().toBuffer()).length, 16 * 16 * 3, `case ${i}`);
  }
});

/** A minimal HEIF whose Exif item is split into extents apart from each other (in the file or in idat). */
function heifWithSplitExif(tiff: Buffer, inIdat: boolean): { file: Buffer; extents: [number, number][] } {
  const box = (type: string, ...parts: Buffer[]) => {
    const body = Buffer.concat(parts);
    const h = Buffer.alloc(8);
    h.writeUInt32BE(8 + body.length);
    h.write(type, 4, 'latin1');
    return Buffer.concat([h, body]);
  };
  const u = (n: number, bytes: number) => {
    const b = Buffer.alloc(bytes);
    b.writeUIntBE(n, 0, bytes);
    return b;
  };
  const item = Buffer.concat([u(0, 4), tiff]); // offset to the TIFF header, then the TIFF
  const cut = Math.floor(item.length / 3);
  const parts = [item.subarray(0, cut), Buffer.from('~'.repeat(40)), item.subarray(cut)];
  const ftyp = box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1'));
  const hdlr = box('hdlr', u(0, 4), u(0, 4), Buffer.from('pict', 'latin1'), Buffer.alloc(12), Buffer.from('\0'));
  const infe = box('infe', u(0x02000000, 4), u(1, 2), u(0, 2), Buffer.from('Exif', 'latin1'), Buffer.from('\0'));
  const iinf = box('iinf', u(0, 4), u(1, 2), infe);
  const ilocFor = (first: number, second: number) =>
    box('iloc', u(0x01000000, 4), u(0x4400, 2), u(1, 2), u(1, 2), u(inIdat ? 1 : 0, 2), u(0, 2), u(2, 2), u(first, 4), u(parts[0].length, 4), u(second, 4), u(parts[2].length, 4));
  const idat = box('idat', ...parts);
  const metaFor = (first: number, second: number) => box('meta', u(0, 4), hdlr, iinf, ilocFor(first, second), ...(inIdat ? [idat] : []));
  if (inIdat) {
    const meta = metaFor(0, parts[0].length + parts[1].length);
    const idatAt = ftyp.length + meta.length - idat.length + 8;
    return { file: Buffer.concat([ftyp, meta]), extents: [[idatAt, parts[0].length], [idatAt + parts[0].length + parts[1].length, parts[2].length]] };
  }
  const metaLength = metaFor(0, 0).length;
  const dataAt = ftyp.length + metaLength + 8;
  const meta = metaFor(dataAt, dataAt + parts[0].length + parts[1].length);
  return { file: Buffer.concat([ftyp, meta, box('mdat', ...parts)]), extents: [[dataAt, parts[0].length], [dataAt + parts[0].length + parts[1].length, parts[2].length]] };
}

for (const inIdat of [false, true]) {
  test(`a HEIC whose Exif item is stored in several extents${inIdat ? ' inside idat' : ''} loses its GPS and keeps the rest`, async () => {
    const jpegWithGps = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().withExif({ IFD0: { Make: 'Test' }, IFD3: GPS }).toBuffer();
    const tiff = (await sharp(jpegWithGps).metadata()).exif!.subarray(6);
    const { file: heif, extents } = heifWithSplitExif(tiff, inIdat);
    const itemTiff = (b: Buffer) => Buffer.concat(extents.map(([at, n]) => b.subarray(at, at + n))).subarray(4);
    assert.ok((await exifr.gps(itemTiff(heif)))?.latitude, 'the item has GPS');
    const file = path.join(tempDir(), 'split.heic');
    fs.writeFileSync(file, heif);
    const bytes = await patched(file, 'image/heic');
    assert.equal(bytes.length, heif.length);
    assert.equal((await exifr.gps(itemTiff(bytes)).catch(() => undefined))?.latitude, undefined);
    assert.equal((await exifr.parse(itemTiff(bytes), ['Make']))?.Make, 'Test');
    // The bytes between the extents belong to something else and stay.
    assert.ok(bytes.includes('~'.repeat(40)));
  });
}
