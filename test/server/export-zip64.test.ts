// An archive past 4 GiB (a long 4K video and friends) must switch to ZIP64 records and
// still pass `unzip -t`. Sparse originals keep the disk cost to the archive itself; they, the
// server's data and the archive live in memory (memoryTempDir), where reading a hole is cheap.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { appendToZip, createZip } from '../../server/export/zip.js';
import { memoryTempDir } from '../helpers/temp.js';
import { startTestServer, TestClient } from '../helpers/server.js';
import { download, placePhoto, run, saveBody, sha256File, sparseFile, type PlacedPhoto } from './export-fixtures.js';

const GB = 1e9;
const FOUR_GIB = 2 ** 32;
let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
const work = memoryTempDir('wedding-zip64-');
const placed: PlacedPhoto[] = [];

before(async () => {
  s = await startTestServer({}, memoryTempDir('wedding-zip64-data-'));
  admin = new TestClient(s.url);
  await admin.login();
  placed.push(await placePhoto(s, { source: sample('Canon_40D.jpg'), is_visible: 1 }));
  placed.push(await placePhoto(s, { create: sparseFile(2.2 * GB, 'first-dance'), original_filename: 'first-dance.mp4', content_type: 'video/mp4', is_visible: 1 }));
  placed.push(await placePhoto(s, { source: sample('Nikon_D70.jpg'), is_visible: 0 }));
  placed.push(await placePhoto(s, { create: sparseFile(2.2 * GB, 'speeches'), original_filename: 'speeches.mov', content_type: 'video/quicktime', is_visible: 1 }));
  // Everything after here sits beyond the 4 GiB mark and needs 64-bit offsets.
  placed.push(await placePhoto(s, { source: sample('Pentax_K10D.jpg'), is_visible: 1 }));
});
after(async () => {
  await s.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('an archive over 4 GiB streams as ZIP64 and unzip -t finds no errors', async () => {
  const zip = path.join(work, 'big.zip');
  const rssBefore = process.memoryUsage().rss;
  const { status, bytes } = await download(`${s.url}/admin/api/export.zip?scope=all`, { cookie: admin.cookieHeader() }, zip);
  assert.equal(status, 200);
  assert.ok(bytes > FOUR_GIB, `archive is ${bytes} bytes`);
  assert.equal(fs.statSync(zip).size, bytes);
  // Neither side held the archive: this process (server and client) grew by far less than it.
  const grown = process.resourceUsage().maxRSS * 1024 - rssBefore;
  assert.ok(grown < 512 * 1024 * 1024, `peak memory grew by ${grown} bytes`);

  // Checksums of the sources, computed here independently while unzip works (another process).
  const [t, expected] = await Promise.all([run('unzip', ['-t', zip]), Promise.all(placed.map((p) => sha256File(p.file)))]);
  assert.equal(t.code, 0, t.stdout + t.stderr);
  assert.match(t.stdout, /No errors detected in compressed data/);
  assert.equal(t.stdout.match(/ OK$/gm)?.length, placed.length + 1);

  // The central directory's last records point past 4 GiB: read the manifest through them.
  const m = await run('unzip', ['-p', zip, 'manifest.json']);
  assert.equal(m.code, 0, m.stderr);
  const manifest = JSON.parse(m.stdout);
  assert.deepEqual(manifest.files.map((f: any) => f.id), placed.map((p) => p.id));
  const extracted = path.join(work, 'last');
  await run('unzip', ['-q', zip, manifest.files[4].name, '-d', extracted]);
  assert.ok(fs.readFileSync(path.join(extracted, manifest.files[4].name)).equals(fs.readFileSync(placed[4].file)));

  for (const [i, p] of placed.entries()) {
    const f = manifest.files[i];
    assert.equal(f.file_size, fs.statSync(p.file).size);
    assert.equal(f.sha256, expected[i], f.name);
  }
  fs.rmSync(zip);
});

test('the largest selection (10,000 ids) streams; more than 65,535 entries switch the archive to ZIP64 too', async () => {
  // 10,000 rows sharing one small original: the POST path at its limit, end to end.
  const rel = path.relative(s.ctx.paths.root, placed[0].file);
  const size = fs.statSync(placed[0].file).size;
  const insert = s.writable().prepare(
    `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp, status, is_visible)
     VALUES (?, 'guest.jpg', ?, 'image/jpeg', ?, ?, ?, 'complete', 0)`,
  );
  const ids = Array.from({ length: 10_000 }, (_, i) => `many${String(i).padStart(5, '0')}`);
  s.writable().transaction(() => {
    // Ten guests' photos per second under the same name.
    ids.forEach((id, i) => insert.run(id, rel, size, `many-${i}`, new Date(Date.UTC(2026, 5, 8) + Math.floor(i / 10) * 1000).toISOString()));
  })();
  const selected = path.join(work, 'ten-thousand.zip');
  const res = await admin.fetch('/admin/api/export.zip', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ photo_ids: ids }) });
  assert.equal(res.status, 200);
  await saveBody(res, selected);
  const list = await run('unzip', ['-Z1', selected]);
  const names = list.stdout.split('\n').filter(Boolean);
  assert.equal(names.length, 10_001);
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length, 'numbered, never overwritten');
  assert.ok(names.includes('2026-06-08 00-00-00 - guest (10).jpg'));

  // The entry count limit is the archive writer's own: 66,000 tiny entries through the same adapter.
  const many = path.join(work, 'many.zip');
  const zip = createZip();
  const out = fs.createWriteStream(many);
  zip.pipe(out);
  const body = Buffer.from('x');
  for (let i = 0; i < 66_000; i++) appendToZip(zip, body, { name: `f${i}.txt`, date: new Date() });
  await zip.finalize();
  await new Promise<void>((r) => out.on('close', () => r()));
  const t = await run('unzip', ['-t', many]);
  assert.equal(t.code, 0, t.stderr + t.stdout.slice(-2000));
  assert.match(t.stdout, /No errors detected/);
  assert.equal(t.stdout.match(/ OK$/gm)?.length, 66_000);
  fs.rmSync(many);
});
