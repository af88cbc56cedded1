// The gallery's reveal time and its moments over real HTTP, and the export's folder per moment.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { tinyImage, uploadFile } from '../helpers/uploads.js';
import { placePhoto, run, saveBody } from './export-fixtures.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
const guest = () => new TestClient(s.url);
const work = tempDir('wedding-controls-');
const ids: Record<string, string> = {};

before(async () => {
  s = await startTestServer();
  admin = new TestClient(s.url);
  await admin.login();
  const { schedule } = (await guest().get('/api/settings')).body.settings;
  schedule[0] = { ...schedule[0], starts_at: '2025-06-06T19:00:00-04:00', ends_at: '2025-06-06T21:00:00-04:00' };
  schedule[1] = { ...schedule[1], starts_at: '2025-06-07T16:30:00-04:00', ends_at: '2025-06-07T23:00:00-04:00' };
  const put = await admin.put('/admin/api/settings', { schedule, time_zone: 'America/New_York' });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const place = (date_taken: string | null, upload_timestamp: string, name: string) =>
    placePhoto(s, { source: sample('Canon_40D.jpg'), original_filename: name, is_visible: 1, date_taken, upload_timestamp }).then((p) => (ids[name] = p.id));
  // A camera's wall-clock EXIF time (no offset, written with Z): 17:00 in New York, the ceremony.
  await place('2025-06-07T17:00:00Z', '2025-06-09T10:00:00.000Z', 'wallclock.jpg');
  // A real instant (a video's creation time): 21:00 UTC is 17:00 in New York.
  await place('2025-06-07T21:00:00.000Z', '2025-06-09T10:00:01.000Z', 'instant.jpg');
  // With its own offset: 21:30 in New York on Friday, after the welcome party.
  await place('2025-06-06T21:30:00-04:00', '2025-06-09T10:00:02.000Z', 'offset.jpg');
  // No date taken: the upload time counts, 19:30 on Friday in New York.
  await place(null, '2025-06-06T23:30:00.000Z', 'uploaded.jpg');
  // A date taken outside every window wins over an upload time inside one.
  await place('2020-01-01T10:00:00Z', '2025-06-07T21:00:00.000Z', 'old.jpg');
});
after(async () => {
  await s.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('each gallery item carries the moment its time falls in, or null', async () => {
  const r = await guest().get('/api/photos?limit=100');
  assert.equal(r.status, 200);
  const moment = new Map(r.body.photos.map((p: any) => [p.original_filename, p.moment]));
  assert.equal(moment.get('wallclock.jpg'), 'Ceremony & Reception');
  assert.equal(moment.get('instant.jpg'), 'Ceremony & Reception');
  assert.equal(moment.get('offset.jpg'), null);
  assert.equal(moment.get('uploaded.jpg'), 'Welcome Party');
  assert.equal(moment.get('old.jpg'), null);
});

test('GET /api/photos?moment=TITLE lists that moment only, paged', async () => {
  const cer = await guest().get(`/api/photos?moment=${encodeURIComponent('Ceremony & Reception')}&limit=1`);
  assert.equal(cer.status, 200);
  assert.equal(cer.body.pagination.total, 2);
  assert.equal(cer.body.pagination.has_more, true);
  const next = await guest().get(`/api/photos?moment=${encodeURIComponent('Ceremony & Reception')}&limit=1&offset=1`);
  const both = [cer.body.photos[0].original_filename, next.body.photos[0].original_filename].sort();
  assert.deepEqual(both, ['instant.jpg', 'wallclock.jpg']);
  const party = await guest().get('/api/photos?moment=Welcome%20Party');
  assert.deepEqual(party.body.photos.map((p: any) => p.original_filename), ['uploaded.jpg']);
  // A schedule item without times, or no such item: an empty page.
  for (const title of ['Goodbye Brunch', 'Nope']) {
    const r = await guest().get(`/api/photos?moment=${encodeURIComponent(title)}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.pagination.total, 0);
  }
  assert.equal((await guest().get('/api/photos?moment=a&moment=b')).status, 400);
});

test('the export puts each file in a folder named after its moment', async () => {
  const res = await admin.fetch('/admin/api/export.zip?scope=all');
  assert.equal(res.status, 200);
  const zip = path.join(work, 'moments.zip');
  await saveBody(res, zip);
  const list = await run('unzip', ['-Z1', zip]);
  const entries = list.stdout.split('\n').filter(Boolean);
  const folderOf = (name: string) => {
    const e = entries.find((x) => x.endsWith(name));
    assert.ok(e, `${name} in ${entries.join(', ')}`);
    return e.includes('/') ? e.slice(0, e.lastIndexOf('/')) : '';
  };
  assert.equal(folderOf('wallclock.jpg'), 'Ceremony & Reception');
  assert.equal(folderOf('instant.jpg'), 'Ceremony & Reception');
  assert.equal(folderOf('uploaded.jpg'), 'Welcome Party');
  // Outside every moment: at the archive's root, like manifest.json.
  assert.equal(folderOf('old.jpg'), '');
  assert.equal(folderOf('offset.jpg'), '');
  const x = path.join(work, 'x');
  await run('unzip', ['-q', zip, '-d', x]);
  const manifest = JSON.parse(fs.readFileSync(path.join(x, 'manifest.json'), 'utf8'));
  const entry = manifest.files.find((f: any) => f.id === ids['uploaded.jpg']);
  assert.match(entry.name, /^Welcome Party\//);
  assert.ok(fs.existsSync(path.join(x, entry.name)));
});

test('before gallery_opens_at the gallery is an empty page saying when it opens; uploads and the wall go on', async () => {
  const opens = new Date(Date.now() + 3_600_000).toISOString();
  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: opens })).status, 200);
  const closed = await guest().get('/api/photos');
  assert.equal(closed.status, 200);
  assert.deepEqual(closed.body.photos, []);
  assert.equal(closed.body.pagination.total, 0);
  assert.equal(closed.body.opens_at, opens);
  const moment = await guest().get('/api/photos?moment=Welcome%20Party');
  assert.equal(moment.body.pagination.total, 0);
  // The wall and the admin panel still see everything; guests can still upload.
  const wall = await guest().get('/api/photos?view=wall&limit=100');
  assert.equal(wall.body.pagination.total, 5);
  assert.equal(wall.body.opens_at, undefined);
  assert.equal((await admin.get('/admin/api/photos?show_all=true')).body.pagination.total, 5);
  const up = await uploadFile(s.url, await tinyImage('jpeg', 9), 'during.jpg');
  assert.equal(up.status, 201);

  // Reveal time passed: the gallery lists again.
  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: new Date(Date.now() - 1000).toISOString() })).status, 200);
  const open = await guest().get('/api/photos');
  assert.equal(open.body.pagination.total, 5);
  assert.equal(open.body.opens_at, undefined);
});
