// The photo book puts JPEG originals into the PDF as they are (undecoded): the same coded pixels,
// turned by their orientation (their own or the couple's rotation), named in their colour
// profile, with their metadata (GPS) left out; other JPEGs are decoded and encoded again.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { jpegAsIs } from '../../server/keepsakes/jpeg-as-is.js';
import { objects, placements, type Placement } from '../helpers/pdf.js';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, type TestClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { addPhoto } from './photos-fixture.js';

const dir = tempDir('wedding-book-as-is-');
const RED = { r: 255, g: 0, b: 0 };
const BLUE = { r: 0, g: 0, b: 255 };

/** Stored pixels: the left half red, the right half blue. */
function halves(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: RED } }).composite([{ input: { create: { width: width / 2, height, channels: 3, background: BLUE } }, left: width / 2, top: 0 }]);
}

const pixels = async (jpeg: Buffer) => (await sharp(jpeg).raw().toBuffer()).toString('base64');

describe('jpegAsIs: a JPEG as a PDF can hold it', () => {
  test('the same coded pixels without the metadata: the GPS position is gone, the orientation and profile are read', async () => {
    const gps = fs.readFileSync(sample('gps_DSCN0010.jpg'));
    assert.ok(await exifr.gps(gps), 'the sample has a position');
    const j = jpegAsIs(gps)!;
    assert.ok(j);
    assert.equal(await exifr.gps(j.data).catch(() => undefined), undefined);
    assert.equal(j.data.indexOf('Exif'), -1);
    assert.deepEqual([j.width, j.height, j.components, j.orientation], [640, 480, 3, 1]);
    assert.equal(await pixels(j.data), await pixels(gps), 'decodes to exactly the same pixels');
    for (const [name, orientation] of [['orientation_landscape_3.jpg', 3], ['orientation_landscape_6.jpg', 6], ['orientation_landscape_8.jpg', 8]] as const) {
      const file = fs.readFileSync(sample(name));
      const k = jpegAsIs(file)!;
      assert.equal(k.orientation, orientation, name);
      assert.equal(k.icc?.subarray(16, 20).toString('latin1'), 'RGB ', `${name}: its colour profile`);
      assert.deepEqual(k.icc, (await sharp(file).metadata()).icc);
    }
  });

  test('a phone picture with data after its end and a progressive JPEG are taken; a cut-off file, CMYK and what is not a JPEG are not', async () => {
    const plain = await halves(64, 48).jpeg().toBuffer();
    const trailing = Buffer.concat([plain, Buffer.from('\xff\xd8 a gain map or depth picture \xff\xd9', 'latin1')]);
    assert.deepEqual(jpegAsIs(trailing)!.data, jpegAsIs(plain)!.data);
    const progressive = await halves(640, 480).jpeg({ progressive: true }).toBuffer();
    assert.equal(await pixels(jpegAsIs(progressive)!.data), await pixels(progressive));
    assert.equal(jpegAsIs(progressive.subarray(0, progressive.length / 2)), null);
    assert.equal(jpegAsIs(await halves(64, 48).toColourspace('cmyk').jpeg().toBuffer()), null);
    assert.equal(jpegAsIs(Buffer.from('not a jpeg')), null);
  });
});

describe('the book puts originals in as they are', () => {
  let s: TestServer;
  let admin: TestClient;
  const ids: Record<string, string> = {};

  before(async () => {
    ({ s, admin } = await serverWithAdmin());
    // Landscape pixels a phone turns by EXIF (orientation 6), in Display P3, with a GPS position.
    const turned = path.join(dir, 'turned.jpg');
    await halves(1200, 800)
      .jpeg()
      .withIccProfile('p3')
      .withExif({ IFD0: { Make: 'Phone' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' } })
      .withMetadata({ orientation: 6 })
      .toFile(turned);
    // Upright landscape pixels the couple turn a quarter clockwise in the admin panel.
    const rotated = path.join(dir, 'rotated.jpg');
    await halves(1000, 600).jpeg().toFile(rotated);
    // A CMYK JPEG: decoded and encoded again as RGB.
    const cmyk = path.join(dir, 'cmyk.jpg');
    await halves(800, 600).toColourspace('cmyk').jpeg().toFile(cmyk);
    for (const [name, file] of Object.entries({ turned, rotated, cmyk })) ids[name] = await addPhoto(s, { file, visible: true });
    const r = await admin.post(`/admin/api/photos/${ids.rotated}/rotate`, { degrees: 90 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await s.services.processing.idle();
  });
  after(() => s.close());

  /** The image drawn with these stored pixels, and the red and blue halves' middles on the page. */
  function find(list: Placement[], width: number, height: number) {
    const p = list.find((x) => new RegExp(`/Width ${width}\\b`).test(x.dict) && new RegExp(`/Height ${height}\\b`).test(x.dict));
    assert.ok(p, `an image of ${width}x${height} pixels: ${list.map((x) => x.dict.replace(/\s+/g, ' ')).join(' | ')}`);
    const corners = [p.at(0, 0), p.at(1, 0), p.at(0, 1), p.at(1, 1)];
    const span = (k: 'x' | 'y') => Math.max(...corners.map((c) => c[k])) - Math.min(...corners.map((c) => c[k]));
    return { p, red: p.at(0.25, 0.5), blue: p.at(0.75, 0.5), wide: span('x'), tall: span('y') };
  }

  test('turned by their orientation (their own and the couple’s rotation), in their profile, undecoded, without GPS; CMYK re-encoded', async () => {
    const made = await admin.post('/admin/api/keepsakes', { kind: 'book', paper: 'A4', source: 'visible' });
    assert.equal(made.status, 202, JSON.stringify(made.body));
    await s.services.processing.idle();
    const k = (await admin.get('/admin/api/keepsakes')).body.keepsakes.find((x: { id: string }) => x.id === made.body.keepsake.id);
    assert.equal(k.status, 'ready', k.error);
    const objs = objects(Buffer.from(await (await admin.fetch(k.url)).arrayBuffer()));
    const list = placements(objs);

    // The phone's portrait: its stored 1200x800 pixels, drawn tall, the stored left (red) half on top.
    const turned = find(list, 1200, 800);
    assert.ok(turned.tall > turned.wide * 1.3, `drawn as a portrait (${turned.wide.toFixed(0)} x ${turned.tall.toFixed(0)} pt)`);
    assert.ok(turned.red.y > turned.blue.y + turned.tall / 3 && Math.abs(turned.red.x - turned.blue.x) < 1, 'turned a quarter clockwise: the red half on top');
    assert.match(turned.p.dict, /\/Filter \/DCTDecode/);
    const original = fs.readFileSync(path.join(dir, 'turned.jpg'));
    const scan = turned.p.stream.indexOf(Buffer.from([0xff, 0xda]));
    assert.ok(original.indexOf(turned.p.stream.subarray(scan, scan + 4096)) > 0, 'the original’s own coded data');
    assert.equal(turned.p.stream.indexOf('Exif'), -1);
    assert.equal(await exifr.gps(turned.p.stream).catch(() => undefined), undefined, 'no GPS position in the book');
    const profile = /\/ColorSpace \[\/ICCBased (\d+) 0 R\]/.exec(turned.p.dict);
    assert.ok(profile, `its colours named by its profile: ${turned.p.dict}`);
    const icc = objs.get(Number(profile[1]))!;
    assert.deepEqual(/FlateDecode/.test(icc.dict) ? icc.stream : zlib.inflateSync(icc.stream!), (await sharp(original).metadata()).icc);

    // The couple's rotation (an orientation the site wrote into the original): stored 1000x600, drawn tall, red on top.
    const rotated = find(list, 1000, 600);
    assert.ok(rotated.tall > rotated.wide * 1.3 && rotated.red.y > rotated.blue.y + rotated.tall / 3, 'the couple’s quarter turn');

    // The CMYK photo: encoded again as RGB (three components), upright, red on the left.
    const cmyk = list.find((x) => /\/ColorSpace \/DeviceRGB/.test(x.dict) && !/\/Width (1200|1000)\b/.test(x.dict) && /\/Width \d{3,}/.test(x.dict) && Number(/\/Width (\d+)/.exec(x.dict)![1]) / Number(/\/Height (\d+)/.exec(x.dict)![1]) > 1.2);
    assert.ok(cmyk, 'the CMYK photo as RGB');
    const { data, info } = await sharp(cmyk.stream).raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.channels, 3);
    const left = (info.height / 2) * info.width * 3 + Math.floor(info.width / 4) * 3;
    assert.ok(data[left] > 200 && data[left + 2] < 60, `red on the left: ${[...data.subarray(left, left + 3)]}`);
  });
});
