import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import exifr from 'exifr';
import sharp from 'sharp';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, tempDir, TestClient, type TestServer } from '../helpers/server.js';
import { placePhoto, run, saveBody, sparseFile } from './export-fixtures.js';

let s: TestServer;
let admin: TestClient;
let guest: TestClient;
before(async () => {
  ({ s, admin, client: guest } = await serverWithAdmin());
});
after(() => s.close());

const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('guest downloads', () => {
  test('the viewer download is the original under its own name, with the GPS location gone and nothing else changed', async () => {
    const original = fs.readFileSync(sample('gps_DSCN0010.jpg'));
    assert.ok((await exifr.gps(original))?.latitude, 'the sample has GPS');
    const p = await placePhoto(s, { source: sample('gps_DSCN0010.jpg'), original_filename: 'Tanz am Abend é.jpg', is_visible: 1 });
    const res = await guest.fetch(`/api/photos/${p.id}/download`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/jpeg');
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; .*filename\*=UTF-8''Tanz%20am%20Abend%20%C3%A9\.jpg/);
    const got = await bytesOf(res);
    assert.equal(got.length, original.length, 'nothing moved');
    assert.equal((await exifr.gps(got).catch(() => undefined))?.latitude, undefined);
    const exif = await exifr.parse(got, ['Make', 'Model']);
    assert.equal(exif.Make, 'NIKON');
    assert.deepEqual(await sharp(got).stats().then((st) => st.channels.map((c) => c.mean)), await sharp(original).stats().then((st) => st.channels.map((c) => c.mean)), 'the same picture');
    const changed = [...got].filter((b, i) => b !== original[i]).length;
    assert.ok(changed > 0 && changed < 600, `only the GPS bytes differ (${changed})`);
  });

  test('an iPhone HEIC download keeps its bytes but loses its GPS; a video comes as its original', async () => {
    assert.ok((await exifr.gps(sample('heic_IMG_5195.HEIC')))?.latitude, 'the sample has GPS');
    const heic = await placePhoto(s, { source: sample('heic_IMG_5195.HEIC'), content_type: 'image/heic', is_visible: 1 });
    const got = await bytesOf(await guest.fetch(`/api/photos/${heic.id}/download`));
    assert.equal(got.length, fs.statSync(sample('heic_IMG_5195.HEIC')).size);
    assert.equal((await exifr.gps(got).catch(() => undefined))?.latitude, undefined);
    assert.equal((await exifr.parse(got, ['Make'])).Make, 'Apple');

    const clip = path.join(tempDir(), 'clip.mp4');
    await run('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', clip]);
    const video = await placePhoto(s, { source: clip, content_type: 'video/mp4', is_visible: 1 });
    assert.deepEqual(await bytesOf(await guest.fetch(`/api/photos/${video.id}/download`)), fs.readFileSync(clip));
  });

  test('a hidden or unknown photo cannot be downloaded by a guest', async () => {
    const hidden = await placePhoto(s, { source: sample('Canon_40D.jpg') });
    for (const id of [hidden.id, 'nope']) {
      const r = await guest.get(`/api/photos/${id}/download`);
      assert.equal(r.status, 404);
      assert.equal(r.body.code, 'not_found');
    }
  });

  test('the gallery ZIP holds every visible photo without GPS, a folder per moment, and no hidden photo', async () => {
    await admin.put('/admin/api/settings', {
      schedule: [{ title: 'Ceremony', day: 'Saturday', time: '4 PM', venue: 'V', location: 'L', attire: 'A', attendance: 'All', description: 'D', starts_at: '2008-10-01T00:00:00Z', ends_at: '2009-01-01T00:00:00Z' }],
    });
    const gps = await placePhoto(s, { source: sample('gps_DSCN0010.jpg'), original_filename: 'dscn.jpg', is_visible: 1, date_taken: '2008-10-22T16:29:49Z' });
    const hidden = await placePhoto(s, { source: sample('Nikon_D70.jpg'), original_filename: 'secret.jpg' });
    const res = await guest.fetch('/api/export.zip');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/zip');
    const dir = tempDir();
    const zip = path.join(dir, 'g.zip');
    await saveBody(res, zip);
    assert.equal((await run('unzip', ['-t', zip])).code, 0);
    const entries = (await run('unzip', ['-Z1', zip])).stdout.split('\n').filter(Boolean);
    const inMoment = entries.find((e) => /^Ceremony\/.* - dscn\.jpg$/.test(e));
    assert.ok(inMoment, entries.join(', '));
    assert.ok(!entries.some((e) => e.includes('secret')), 'the hidden photo is not in it');
    assert.ok(!entries.includes('manifest.json'));
    const visibleCount = (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos WHERE is_visible = 1').get() as { n: number }).n;
    assert.equal(entries.length, visibleCount);
    await run('unzip', ['-q', zip, '-d', dir]);
    const extracted = fs.readFileSync(path.join(dir, inMoment));
    assert.equal(extracted.length, fs.statSync(sample('gps_DSCN0010.jpg')).size);
    assert.equal((await exifr.gps(extracted).catch(() => undefined))?.latitude, undefined);
    assert.ok(hidden.id && gps.id);
  });

  test('at most two gallery ZIPs stream at once from one address; the third is told to wait', async () => {
    await placePhoto(s, { create: sparseFile(300 * 1024 * 1024, 'big'), original_filename: 'big.jpg', is_visible: 1 });
    const open: http.ClientRequest[] = [];
    const start = () =>
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.get(`${s.url}/api/export.zip`, (res) => {
          res.pause();
          resolve(res);
        });
        req.on('error', reject);
        open.push(req);
      });
    try {
      const [a, b] = [await start(), await start()];
      assert.equal(a.statusCode, 200);
      assert.equal(b.statusCode, 200);
      const third = await guest.get('/api/export.zip');
      assert.equal(third.status, 429);
      assert.equal(third.body.code, 'rate_limited');
      assert.ok(Number(third.res.headers.get('retry-after')) > 0);
      open[0].destroy();
      await new Promise((r) => setTimeout(r, 300));
      const again = await start();
      assert.equal(again.statusCode, 200);
    } finally {
      for (const r of open) r.destroy();
    }
  });

  test('with guest downloads off, both answer 404 downloads_off; the admin export still works', async () => {
    const p = await placePhoto(s, { source: sample('Canon_40D.jpg'), is_visible: 1 });
    assert.equal((await admin.put('/admin/api/settings', { guest_downloads: false })).status, 200);
    assert.equal((await guest.get('/api/settings')).body.settings.guest_downloads, false);
    try {
      for (const url of [`/api/photos/${p.id}/download`, '/api/export.zip']) {
        const r = await guest.get(url);
        assert.equal(r.status, 404, url);
        assert.equal(r.body.code, 'downloads_off');
      }
      const adminZip = await admin.fetch('/admin/api/export.zip?scope=visible', { method: 'HEAD' });
      assert.equal(adminZip.status, 200);
    } finally {
      await admin.put('/admin/api/settings', { guest_downloads: true });
    }
    assert.equal((await guest.fetch(`/api/photos/${p.id}/download`)).status, 200);
  });
});
