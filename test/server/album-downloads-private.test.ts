// What guests download carries no place: videos lose their location metadata (singly and in the
// gallery ZIP), and a stored path that would lead out of DATA_DIR is never followed.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, tempDir, type TestClient, type TestServer } from '../helpers/server.js';
import { placePhoto, run, saveBody } from './export-fixtures.js';

let s: TestServer;
let admin: TestClient;
let guest: TestClient;
before(async () => {
  ({ s, admin, client: guest } = await serverWithAdmin());
});
after(() => s.close());

const COORDINATES = ['48.8577', '002.2950', '2.2950'];
const holdsPlace = (bytes: Buffer) => COORDINATES.find((c) => bytes.includes(c));
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());

/** A one-second clip with a location the way an iPhone (QuickTime key) or an Android phone (©xyz) writes it. */
function clip(dir: string, kind: 'iphone' | 'android'): string {
  const file = path.join(dir, `${kind}.mov`);
  const meta =
    kind === 'iphone'
      ? ['-movflags', 'use_metadata_tags', '-metadata', 'com.apple.quicktime.location.ISO6709=+48.8577+002.2950+035.000/', '-metadata', 'com.apple.quicktime.model=iPhone 15']
      : ['-metadata', 'location=+48.8577+002.2950/'];
  const r = spawnSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=160x120:rate=10', '-pix_fmt', 'yuv420p', ...meta, '-f', 'mov', file]);
  assert.equal(r.status, 0, r.stderr.toString());
  assert.ok(holdsPlace(fs.readFileSync(file)), 'the clip carries its location');
  return file;
}

const probeTags = (file: string) => JSON.stringify(JSON.parse(spawnSync('ffprobe', ['-v', 'error', '-of', 'json', '-show_entries', 'format_tags', file], { encoding: 'utf8' }).stdout).format?.tags ?? {});

test("a guest's download of an iPhone or Android video is a playable copy without its location", async () => {
  const dir = tempDir();
  for (const kind of ['iphone', 'android'] as const) {
    const source = clip(dir, kind);
    const video = await placePhoto(s, { source, content_type: 'video/quicktime', original_filename: `${kind}.mov`, is_visible: 1 });
    const res = await guest.fetch(`/api/photos/${video.id}/download`);
    assert.equal(res.status, 200);
    const got = await bytesOf(res);
    assert.equal(got.length, fs.statSync(source).size, kind);
    assert.equal(Number(res.headers.get('content-length')), got.length);
    assert.equal(holdsPlace(got), undefined, `${kind}: no coordinates in the bytes served`);
    const out = path.join(dir, `got-${kind}.mov`);
    fs.writeFileSync(out, got);
    assert.doesNotMatch(probeTags(out), /location|xyz/i, kind);
    assert.equal(spawnSync('ffmpeg', ['-v', 'error', '-xerror', '-i', out, '-f', 'null', '-']).status, 0, `${kind}: still plays`);
    if (kind === 'iphone') assert.match(probeTags(out), /iPhone 15/, 'the rest of its metadata stays');
  }
});

test("the guests' ZIP holds the videos without their location", async () => {
  const dir = tempDir();
  const res = await guest.fetch('/api/export.zip');
  assert.equal(res.status, 200);
  const zip = path.join(dir, 'g.zip');
  await saveBody(res, zip);
  assert.equal((await run('unzip', ['-q', zip, '-d', path.join(dir, 'x')])).code, 0);
  const entries = fs.readdirSync(path.join(dir, 'x'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const videos = entries.filter((e) => e.name.endsWith('.mov'));
  assert.equal(videos.length, 2, entries.map((e) => e.name).join(', '));
  for (const e of videos) assert.equal(holdsPlace(fs.readFileSync(path.join(e.parentPath, e.name))), undefined, e.name);
});

test('a stored path leading out of DATA_DIR is not followed: no guest download, left out of both ZIPs', async () => {
  const outside = path.join(tempDir('outside-'), 'secret.jpg');
  fs.copyFileSync(sample('Nikon_D70.jpg'), outside);
  const p = await placePhoto(s, { source: sample('Canon_40D.jpg'), original_filename: 'escape.jpg', is_visible: 1 });
  s.writable().prepare('UPDATE photos SET stored_path = ? WHERE id = ?').run(path.relative(s.ctx.paths.root, outside), p.id);
  const single = await guest.get(`/api/photos/${p.id}/download`);
  assert.equal(single.status, 404);
  const secret = fs.readFileSync(outside);
  const probe = secret.subarray(secret.length >> 1, (secret.length >> 1) + 64);
  for (const [who, url] of [
    [guest, '/api/export.zip'],
    [admin, '/admin/api/export.zip'],
  ] as const) {
    const res = await who.fetch(url);
    assert.equal(res.status, 200, url);
    const zip = path.join(tempDir(), 'z.zip');
    await saveBody(res, zip);
    assert.ok(!fs.readFileSync(zip).includes(probe), `${url}: the file outside DATA_DIR is not in it`);
    const names = (await run('unzip', ['-Z1', zip])).stdout;
    assert.doesNotMatch(names, /escape/, url);
  }
});
