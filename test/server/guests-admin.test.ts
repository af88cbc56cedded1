import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { tinyImage } from '../helpers/uploads.js';
import { guestUpload, processed } from './guests-helpers.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let anna: TestClient;
let ben: TestClient;
let quiet: TestClient;
let admin: TestClient;
const HTML_NAME = '<img src=x onerror=alert(1)> & "Bob"';
const ids: Record<string, string[]> = { anna: [], ben: [], quiet: [] };

before(async () => {
  s = await startTestServer();
  [anna, ben, quiet, admin] = [0, 1, 2, 3].map(() => new TestClient(s.url));
  await admin.login();
  for (let i = 0; i < 3; i++) ids.anna.push((await guestUpload(anna, await tinyImage('png', 10 + i), `anna-${i}.png`, 'Anna')).body.photo_id);
  ids.ben.push((await guestUpload(ben, await tinyImage('png', 20), 'ben.png', HTML_NAME)).body.photo_id);
  ids.quiet.push((await guestUpload(quiet, await tinyImage('png', 30), 'quiet.png')).body.photo_id);
  for (const id of Object.values(ids).flat()) await processed(admin, id);
});
after(() => s.close());

test('the admin photo list carries uploader_name (null when anonymous) and filters by one guest', async () => {
  const all = await admin.get('/admin/api/photos?per_page=100');
  const byId = new Map(all.body.photos.map((p: any) => [p.id, p]));
  assert.equal((byId.get(ids.anna[0]) as any).uploader_name, 'Anna');
  assert.equal((byId.get(ids.ben[0]) as any).uploader_name, HTML_NAME, 'HTML in a name is kept as plain text');
  assert.equal((byId.get(ids.quiet[0]) as any).uploader_name, null);

  const annas = await admin.get('/admin/api/photos?uploader=Anna&per_page=2');
  assert.equal(annas.status, 200);
  assert.deepEqual(annas.body.photos.map((p: any) => p.id), [ids.anna[2], ids.anna[1]]);
  assert.equal(annas.body.pagination.total, 3);
  assert.equal(annas.body.pagination.pages, 2);
  const bens = await admin.get(`/admin/api/photos?uploader=${encodeURIComponent(HTML_NAME)}`);
  assert.deepEqual(bens.body.photos.map((p: any) => p.id), ids.ben);
  assert.equal((await admin.get('/admin/api/photos?uploader=Nobody')).body.pagination.total, 0);
  assert.equal((await admin.get('/admin/api/photos?uploader=a&uploader=b')).status, 400);
});

test('GET /admin/api/uploaders names every guest name with its count, most first; signed-in users only', async () => {
  const r = await admin.get('/admin/api/uploaders');
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.uploaders, [
    { name: 'Anna', count: 3 },
    { name: HTML_NAME, count: 1 },
  ]);
  assert.equal((await anna.get('/admin/api/uploaders')).status, 401);
});

test('the dashboard says who uploaded, one row per burst, and lists the top contributors', async () => {
  const d = await admin.get('/admin/api/dashboard');
  const uploads = d.body.recent_activity.filter((a: any) => a.type === 'upload');
  const texts = uploads.map((a: any) => a.description);
  assert.ok(texts.includes('Anna uploaded 3 photos'), texts.join(' | '));
  assert.equal(texts.filter((t: string) => t.startsWith('Anna')).length, 1, 'one row for the burst');
  assert.equal(uploads.find((a: any) => a.description === 'Anna uploaded 3 photos').user_name, 'Anna');
  assert.ok(texts.includes(`${HTML_NAME} uploaded a photo: ben.png`), texts.join(' | '));
  assert.ok(texts.includes('New photo uploaded: quiet.png'), 'an anonymous single file reads as before');
  assert.deepEqual(d.body.top_contributors, [
    { name: 'Anna', count: 3 },
    { name: HTML_NAME, count: 1 },
  ]);
});

test('the export manifest has uploader_name for each file', async () => {
  const work = tempDir('guests-export-');
  try {
    const res = await admin.fetch('/admin/api/export.zip?scope=all');
    assert.equal(res.status, 200);
    const zip = path.join(work, 'a.zip');
    fs.writeFileSync(zip, Buffer.from(await res.arrayBuffer()));
    const manifest = JSON.parse(execFileSync('unzip', ['-p', zip, 'manifest.json'], { encoding: 'utf8' }));
    const byId = new Map(manifest.files.map((f: any) => [f.id, f.uploader_name]));
    assert.equal(byId.get(ids.anna[0]), 'Anna');
    assert.equal(byId.get(ids.ben[0]), HTML_NAME);
    assert.equal(byId.get(ids.quiet[0]), null);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});

test('gallery items and wall events carry uploader_name while show_uploader_names is on, null when off', async () => {
  assert.equal((await admin.get('/api/settings')).body.settings.show_uploader_names, true, 'on by default');
  const events: any[] = [];
  const stop = s.services.bus.subscribe((ev) => events.push(ev));
  const r = await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: [ids.anna[0], ids.ben[0], ids.quiet[0]], action: 'show' });
  assert.equal(r.status, 200);
  const visible = events.filter((e) => e.type === 'photo-visible');
  assert.equal(new Map(visible.map((e) => [e.data.id, e.data.uploader_name])).get(ids.anna[0]), 'Anna');
  const gallery = await quiet.get('/api/photos');
  const names = new Map(gallery.body.photos.map((p: any) => [p.id, p.uploader_name]));
  assert.equal(names.get(ids.anna[0]), 'Anna');
  assert.equal(names.get(ids.ben[0]), HTML_NAME);
  assert.equal(names.get(ids.quiet[0]), null);

  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: false })).status, 200);
  assert.equal((await admin.get('/api/settings')).body.settings.show_uploader_names, false);
  const hidden = await quiet.get('/api/photos');
  assert.ok(hidden.body.photos.length >= 3);
  assert.ok(hidden.body.photos.every((p: any) => p.uploader_name === null));
  events.length = 0;
  await admin.post(`/admin/api/photos/${ids.anna[1]}/approve`);
  stop();
  assert.equal(events.find((e) => e.type === 'photo-visible').data.uploader_name, null);
  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: 'yes' })).status, 400);
  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: true })).status, 200);
});

test('over HTTPS (behind a trusted proxy) the guest cookie is Secure', async () => {
  const t = await startTestServer({ TRUST_PROXY: 'true' });
  try {
    const c = new TestClient(t.url);
    const r = await c.json('GET', '/api/my/uploads', undefined, { 'x-forwarded-proto': 'https' });
    assert.equal(r.status, 200);
    assert.match(c.lastSetCookie.find((x) => x.startsWith('wedding_guest=')) ?? '', /; Secure/);
  } finally {
    await t.close();
  }
});
