import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { serverWithAdmin, userClient, type TestClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
const dir = tempDir('wedding-keepsakes-');

before(async () => {
  ({ s, admin } = await serverWithAdmin());
  // Large enough for 300 dpi on a full A4 page: a landscape and a portrait, and one hidden in a colour no other photo has.
  const shots: [string, number, number, { r: number; g: number; b: number }, boolean][] = [
    ['land.jpg', 3600, 2400, { r: 40, g: 90, b: 160 }, true],
    ['port.jpg', 2400, 3600, { r: 160, g: 120, b: 60 }, true],
    ['small.jpg', 900, 600, { r: 90, g: 140, b: 90 }, true],
    ['hidden.jpg', 2000, 1500, { r: 255, g: 0, b: 255 }, false],
  ];
  for (const [name, width, height, background, visible] of shots) {
    const file = path.join(dir, name);
    await sharp({ create: { width, height, channels: 3, background } }).jpeg().toFile(file);
    await addPhoto(s, { file, visible });
  }
});
after(() => s.close());

async function made(id: string): Promise<any> {
  await s.services.processing.idle();
  const list = (await admin.get('/admin/api/keepsakes')).body.keepsakes;
  return list.find((k: any) => k.id === id);
}

describe('keepsakes: rights and bad input', () => {
  test('family sees the list but cannot make, delete or share; bad requests are 400 with a sentence', async () => {
    const family = await userClient(s.url, admin, 'family');
    assert.equal((await family.get('/admin/api/keepsakes')).status, 200);
    assert.equal((await family.post('/admin/api/keepsakes', { kind: 'book' })).status, 403);
    assert.equal((await family.put('/admin/api/keepsakes/share', { share_film: true })).status, 403);
    assert.equal((await family.del('/admin/api/keepsakes/whatever')).status, 403);
    const bride = await userClient(s.url, admin, 'bride');
    for (const body of [{ kind: 'poster' }, { kind: 'film', seconds: 59 }, { kind: 'film', seconds: 601 }, { kind: 'film', seconds: 90.5 }, { kind: 'book', paper: 'A3' }, { kind: 'book', source: 'best' }, { kind: 'film', music_id: 'nope' }, { kind: 'book', source: 'highlights' }]) {
      const r = await bride.post('/admin/api/keepsakes', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(typeof r.body.error, 'string');
    }
    assert.equal((await bride.put('/admin/api/keepsakes/share', { share_film: 'yes' })).status, 400);
    assert.equal((await bride.del('/admin/api/keepsakes/no-such')).status, 404);
    assert.equal((await s.services.processing.idle(), (await admin.get('/admin/api/keepsakes')).body.keepsakes.length), 0);
  });
});

/** The PDF's objects: `n 0 obj ... endobj`, streams inflated. */
function objects(pdf: Buffer): Map<number, { dict: string; stream: Buffer | null }> {
  const out = new Map<number, { dict: string; stream: Buffer | null }>();
  const text = pdf.toString('latin1');
  for (const m of text.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2];
    const at = body.indexOf('stream');
    let stream: Buffer | null = null;
    let dict = body;
    if (at >= 0) {
      dict = body.slice(0, at);
      const raw = Buffer.from(body.slice(at + 6).replace(/^\r?\n/, '').replace(/\r?\nendstream\s*$/, ''), 'latin1');
      stream = /FlateDecode/.test(dict) ? zlib.inflateSync(raw) : raw;
    }
    out.set(Number(m[1]), { dict, stream });
  }
  return out;
}

describe('keepsakes: the photo book', () => {
  test('an A4 book: its pages, the theme fonts embedded, every photo at 300 dpi where its pixels allow, no hidden photo', async () => {
    const r = await admin.post('/admin/api/keepsakes', { kind: 'book', paper: 'A4', source: 'visible' });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    const k = await made(r.body.keepsake.id);
    assert.equal(k.status, 'ready', k.error);
    assert.equal(k.progress, 100);
    const res = await admin.fetch(k.url);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
    const objs = objects(pdf);
    const pages = [...objs.values()].filter((o) => /\/Type \/Page\b/.test(o.dict));
    assert.ok(pages.length >= 3, 'a cover, a chapter and photo pages');
    for (const p of pages) assert.match(p.dict, /\/MediaBox \[0 0 595\.28 841\.89\]/);
    const fonts = [...objs.values()].filter((o) => /\/Type \/FontDescriptor/.test(o.dict));
    assert.ok(fonts.length >= 2, 'the theme serif and sans');
    for (const f of fonts) assert.match(f.dict, /\/FontFile2? \d+ 0 R/, 'each font embedded');
    assert.ok(fonts.some((f) => /CormorantGaramond/.test(f.dict)) && fonts.some((f) => /Inter/.test(f.dict)), 'the sage theme: Cormorant Garamond and Inter');
    // Each image's pixels against the size it is drawn at (`w 0 0 h x y cm /In Do`).
    const images = new Map<string, { w: number; h: number; stream: Buffer }>();
    for (const o of objs.values()) {
      const xo = /\/XObject\s*<<([^>]*)>>/.exec(o.dict);
      if (!xo) continue;
      for (const [, name, ref] of xo[1].matchAll(/\/(\w+) (\d+) 0 R/g)) {
        const img = objs.get(Number(ref))!;
        images.set(name, { w: Number(/\/Width (\d+)/.exec(img.dict)![1]), h: Number(/\/Height (\d+)/.exec(img.dict)![1]), stream: img.stream! });
      }
    }
    let checked = 0;
    let sawSmall = false;
    for (const o of objs.values()) {
      const content = o.stream?.toString('latin1') ?? '';
      for (const [, a, d, name] of content.matchAll(/([\d.-]+) 0 0 ([\d.-]+) [\d.-]+ [\d.-]+ cm\s*\/(\w+) Do/g)) {
        const img = images.get(name);
        if (!img) continue;
        const dpi = Math.min(img.w / (Math.abs(Number(a)) / 72), img.h / (Math.abs(Number(d)) / 72));
        if (img.w === 900 || img.h === 600) sawSmall = true; // the small photo keeps all it has
        else assert.ok(dpi >= 299.5, `${name} at ${dpi.toFixed(1)} dpi`);
        const { data } = await sharp(img.stream).raw().toBuffer({ resolveWithObject: true });
        for (let i = 0; i < data.length; i += 3) assert.ok(!(data[i] > 230 && data[i + 1] < 30 && data[i + 2] > 230), 'no pixel of the hidden photo');
        checked++;
      }
    }
    assert.ok(checked >= 4, `cover and three photos drawn (${checked})`);
    assert.ok(sawSmall, 'the small photo is in it at its own size');
  });
});

describe('keepsakes: the film', () => {
  test('a one-minute film: 1920x1080 H.264 + AAC at 30 fps, faststart, 60 s within 5%, a chapter, shared only when shared', async () => {
    // Material for a minute: ten photos at most 7 s each would be too few without these.
    for (let i = 0; i < 8; i++) {
      const file = path.join(dir, `more-${i}.jpg`);
      await sharp({ create: { width: i % 3 ? 1600 : 1000, height: i % 3 ? 1000 : 1500, channels: 3, background: { r: 20 * i, g: 180 - 10 * i, b: 120 } } }).jpeg().toFile(file);
      await addPhoto(s, { file, visible: true });
    }
    const r = await admin.post('/admin/api/keepsakes', { kind: 'film', seconds: 60 });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    assert.equal((await admin.get('/api/keepsakes/film')).body.film, null);
    const k = await made(r.body.keepsake.id);
    assert.equal(k.status, 'ready', k.error);
    const file = path.join(dir, 'film.mp4');
    fs.writeFileSync(file, Buffer.from(await (await admin.fetch(k.url)).arrayBuffer()));
    const info = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_chapters', file]).toString());
    const v = info.streams.find((x: any) => x.codec_type === 'video');
    const a = info.streams.find((x: any) => x.codec_type === 'audio');
    assert.equal(v.codec_name, 'h264');
    assert.equal(v.width, 1920);
    assert.equal(v.height, 1080);
    assert.equal(v.r_frame_rate, '30/1');
    assert.equal(a.codec_name, 'aac');
    assert.ok(Math.abs(Number(info.format.duration) - 60) <= 3, `duration ${info.format.duration}`);
    assert.ok(info.chapters.length >= 1, 'chapters');
    const head = fs.readFileSync(file).subarray(0, 4096).toString('latin1');
    assert.ok(head.indexOf('moov') >= 0 && (head.indexOf('mdat') < 0 || head.indexOf('moov') < head.indexOf('mdat')), 'faststart: the index first');
    // The title frame is not one flat colour.
    const frame = execFileSync('ffmpeg', ['-v', 'error', '-ss', '2', '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1']);
    const stats = await sharp(frame).stats();
    assert.ok(stats.channels.some((c) => c.stdev > 5), 'the title card has text on it');

    assert.equal((await admin.put('/admin/api/keepsakes/share', { share_film: true })).status, 200);
    const shared = (await admin.get('/api/keepsakes/film')).body.film;
    assert.ok(shared?.url);
    const played = await admin.fetch(shared.url);
    assert.equal(played.status, 200);
    assert.equal(played.headers.get('content-type'), 'video/mp4');
    await played.arrayBuffer();
    assert.equal((await admin.put('/admin/api/keepsakes/share', { share_film: false })).status, 200);
    assert.equal((await admin.get('/api/keepsakes/film')).body.film, null);
    assert.equal((await admin.fetch(shared.url)).status, 404);
  });
});
