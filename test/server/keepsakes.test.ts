import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { makeAudio, postMessage, voiceReady } from '../helpers/guestbook.js';
import { drawnImages, objects } from '../helpers/pdf.js';
import { toolsOf } from '../helpers/processes.js';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { tempDir } from '../helpers/temp.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
let landId: string;
const dir = tempDir('wedding-keepsakes-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
    const id = await addPhoto(s, { file, visible });
    if (name === 'land.jpg') landId = id;
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

/** Fails when any pixel of an image has the hidden photo's magenta. */
async function noMagenta(images: { stream: Buffer }[]): Promise<void> {
  for (const img of images) {
    const { data, info } = await sharp(img.stream).raw().toBuffer({ resolveWithObject: true });
    if (info.channels < 3) continue;
    for (let i = 0; i < data.length; i += info.channels) assert.ok(!(data[i] > 230 && data[i + 1] < 30 && data[i + 2] > 230), 'no pixel of the hidden photo');
  }
}

/** As the admin page asks for it: a browser's POST names the page's origin, where the QR codes lead when no public address is set. */
async function makeBook(paper: string): Promise<Buffer> {
  const r = await admin.json('POST', '/admin/api/keepsakes', { kind: 'book', paper, source: 'visible' }, { origin: new URL(s.url).origin });
  assert.equal(r.status, 202, JSON.stringify(r.body));
  const k = await made(r.body.keepsake.id);
  assert.equal(k.status, 'ready', k.error);
  return Buffer.from(await (await admin.fetch(k.url)).arrayBuffer());
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
    const images = await drawnImages(objs);
    let checked = 0;
    let sawSmall = false;
    for (const img of images) {
      const dpi = Math.min(img.w / (img.drawnW / 72), img.h / (img.drawnH / 72));
      if (img.w === 900 || img.h === 600) sawSmall = true; // the small photo keeps all it has
      else assert.ok(dpi >= 299.5, `a ${img.w}x${img.h} image at ${dpi.toFixed(1)} dpi`);
      checked++;
    }
    await noMagenta(images);
    assert.ok(checked >= 4, `cover and three photos drawn (${checked})`);
    assert.ok(sawSmall, 'the small photo is in it at its own size');
  });

  test('US letter and square books: their page sizes, no hidden photo; the guestbook QR code beside a voice note plays it', async () => {
    const guest = new TestClient(s.url);
    const posted = await postMessage(guest, { message: 'Listen to us sing!', name: 'Anna', audio: makeAudio('webm', 2) });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const id = posted.body.entry.id;
    assert.equal((await voiceReady(guest, id)).audio_status, 'complete');
    assert.equal((await admin.post(`/admin/api/guestbook/${id}/approve`)).status, 200);
    await postMessage(guest, { message: 'Words only', name: 'Ben' }).then(async (r) => admin.post(`/admin/api/guestbook/${r.body.entry.id}/approve`));

    const sizes: Record<string, string> = { letter: '612 792', square: '612 612' };
    // The couple's cover photo on the cover: from its original, at 300 dpi like the pages (its display copy is not).
    assert.equal((await admin.put('/admin/api/settings', { cover_photo_id: landId })).status, 200);
    for (const paper of ['letter', 'square']) {
      const objs = objects(await makeBook(paper));
      const pages = [...objs.values()].filter((o) => /\/Type \/Page\b/.test(o.dict));
      assert.ok(pages.length >= 4, `${paper}: a cover, a chapter, photo pages and the guestbook (${pages.length})`);
      for (const p of pages) assert.match(p.dict, new RegExp(`/MediaBox \\[0 0 ${sizes[paper]}\\]`), paper);
      const images = await drawnImages(objs);
      // The QR codes are small squares (an inch); the rest are the cover and the photos.
      const small = (i: { w: number; h: number; drawnW: number }) => i.w === i.h && i.drawnW <= 100;
      assert.ok(images.filter((i) => !small(i)).length >= 4, `${paper}: the cover and the three photos`);
      await noMagenta(images);
      for (const i of images.filter((i) => !small(i) && i.w !== 900 && i.h !== 600)) {
        const dpi = Math.min(i.w / (i.drawnW / 72), i.h / (i.drawnH / 72));
        assert.ok(dpi >= 299.5, `${paper}: a ${i.w}x${i.h} image at ${dpi.toFixed(1)} dpi`);
      }
      // The only QR code: one for the one voice note, which decodes to the address that plays it.
      const codes: string[] = [];
      for (const img of images.filter(small)) {
        const { data, info } = await sharp(img.stream).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
        const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
        if (code) codes.push(code.data);
      }
      assert.equal(codes.length, 1, `${paper}: one QR code (${JSON.stringify(codes)})`);
      assert.equal(new URL(codes[0]).pathname, `/api/guestbook/${id}/audio`);
      const played = await fetch(codes[0]);
      assert.equal(played.status, 200, codes[0]);
      assert.match(played.headers.get('content-type') ?? '', /^audio\//);
      assert.ok((await played.arrayBuffer()).byteLength > 1000, 'the voice note itself');
    }
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
    // A visible photo in a colour of its own (cyan), so the frames below show colours can be seen at all.
    const cyan = path.join(dir, 'cyan.jpg');
    await sharp({ create: { width: 1600, height: 1000, channels: 3, background: { r: 0, g: 255, b: 255 } } }).jpeg().toFile(cyan);
    await addPhoto(s, { file: cyan, visible: true });
    // The couple's music: a tone longer than the film.
    const track = path.join(dir, 'song.m4a');
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=65', '-c:a', 'aac', '-b:a', '64k', '-y', track]);
    const form = new FormData();
    form.append('file', new Blob([fs.readFileSync(track)], { type: 'audio/mp4' }), 'our song.m4a');
    const m = await admin.fetch('/admin/api/keepsakes/music', { method: 'POST', body: form });
    assert.equal(m.status, 201, await m.clone().text());
    const musicId = ((await m.json()) as any).music.id;
    const r = await admin.post('/admin/api/keepsakes', { kind: 'film', seconds: 60, music_id: musicId });
    assert.equal(r.status, 202, JSON.stringify(r.body));
    // Uploads' processing goes first: while another job runs the film's ffmpeg is stopped, not kept
    // paused (holding its memory), and once none does its segment is made again; the film below is whole.
    const film = r.body.keepsake.id as string;
    const running = () => toolsOf(film).some((t) => t.args.includes('ffmpeg'));
    for (const t = Date.now(); !running(); await sleep(50)) assert.ok(Date.now() - t < 60_000, "the film's ffmpeg runs");
    const db = s.writable();
    const job = db.prepare("INSERT INTO jobs (type, photo_id, status, run_after, created_at, updated_at) VALUES ('process-media', NULL, 'running', 0, ?, ?)").run(Date.now(), Date.now()).lastInsertRowid;
    for (const t = Date.now(); toolsOf(film).length; await sleep(50)) assert.ok(Date.now() - t < 5000, "the film's ffmpeg gone while another job runs");
    await sleep(1500);
    assert.deepEqual(toolsOf(film), [], 'none started again meanwhile, none kept stopped');
    db.prepare('DELETE FROM jobs WHERE id = ?').run(job);
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

    // The music is heard all through (a silent track is about -91 dB) and fades out at the end.
    const duration = Number(info.format.duration);
    const meanVolume = (from: number, length: number) => {
      const out = spawnSync('ffmpeg', ['-hide_banner', '-nostats', '-ss', String(from), '-t', String(length), '-i', file, '-vn', '-af', 'volumedetect', '-f', 'null', '-']).stderr.toString();
      const dB = /mean_volume: (-?[\d.]+|-inf) dB/.exec(out);
      assert.ok(dB, out);
      return dB[1] === '-inf' ? -Infinity : Number(dB[1]);
    };
    for (const at of [3, 20, 40, duration - 12]) {
      const dB = meanVolume(at, 5);
      assert.ok(dB > -30, `the music at ${at.toFixed(1)} s: ${dB} dB`);
    }
    const middle = meanVolume(30, 5);
    const end = meanVolume(duration - 0.6, 0.6);
    assert.ok(end < middle - 10, `the end fades out: ${end} dB against ${middle} dB`);

    // Frame by frame (3 a second, scaled down): the hidden magenta photo never shows; the visible cyan one does.
    const W = 96;
    const H = 54;
    const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-an', '-vf', `fps=3,scale=${W}:${H}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
    const size = W * H * 3;
    assert.ok(raw.length / size >= 170, `frames: ${raw.length / size}`);
    let mostCyan = 0;
    for (let f = 0; f + size <= raw.length; f += size) {
      let magenta = 0;
      let cyanish = 0;
      for (let i = f; i < f + size; i += 3) {
        const [red, green, blue] = [raw[i], raw[i + 1], raw[i + 2]];
        if (red > 200 && green < 70 && blue > 200) magenta++;
        if (red < 70 && green > 200 && blue > 200) cyanish++;
      }
      assert.ok(magenta < (W * H) / 50, `frame ${f / size}: ${magenta} magenta pixels of ${W * H}`);
      mostCyan = Math.max(mostCyan, cyanish / (W * H));
    }
    assert.ok(mostCyan > 0.5, `the visible cyan photo fills a frame (at most ${(mostCyan * 100).toFixed(0)}%)`);

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
