// moderation "auto" over real HTTP and the real processing queue: a good upload becomes visible by
// itself (activity row, wall event), a corrupt one does not; "manual" keeps uploads hidden.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { watchEvents } from '../helpers/sse-text.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;

before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

const galleryIds = async () => ((await new TestClient(s.url).get('/api/photos?limit=100')).body.photos as { id: string }[]).map((p) => p.id);

async function uploadAndSettle(data: Buffer | string, name: string): Promise<{ id: string; status: string }> {
  const up = await uploadFile(s.url, data, name);
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const status = await waitForStatus(s.url, up.body.photo_id);
  await s.services.processing.idle(); // the approval runs as part of the finished job
  return { id: up.body.photo_id, status };
}

test('manual (the default): a processed upload stays hidden until approved', async () => {
  const { id, status } = await uploadAndSettle(await tinyImage('jpeg', 1), 'manual.jpg');
  assert.equal(status, 'complete');
  assert.ok(!(await galleryIds()).includes(id));
  const dash = await admin.get('/admin/api/dashboard');
  assert.ok(dash.body.stats.pending_photos >= 1);
});

test('auto: a good photo becomes visible once complete, with an activity row and a photo-visible event', async () => {
  assert.equal((await admin.put('/admin/api/settings', { moderation: 'auto' })).status, 200);
  const stream = await watchEvents(s.url);
  try {
    await stream.waitFor('ready');
    const { id, status } = await uploadAndSettle(sample('Canon_40D.jpg'), 'canon.jpg');
    assert.equal(status, 'complete');
    assert.ok((await galleryIds()).includes(id), 'listed in the public gallery');
    const event = await stream.waitFor('photo-visible');
    assert.equal(event.id, id);
    assert.ok(event.backblaze_url, 'the wall gets a showable item');
    const admins = await admin.get('/admin/api/photos?show_all=true');
    const row = admins.body.photos.find((p: any) => p.id === id);
    assert.equal(row.is_visible, true);
    assert.ok(row.approved_at);
    const dash = await admin.get('/admin/api/dashboard');
    const approval = dash.body.recent_activity.find((a: any) => a.type === 'approval');
    assert.match(approval.description, /^Approved "canon\.jpg" automatically$/);
  } finally {
    await stream.close();
  }
});

test('auto: a corrupt file ends in error and stays hidden', async () => {
  const { id, status } = await uploadAndSettle(sample('corrupted.jpg'), 'corrupted.jpg');
  assert.equal(status, 'error');
  assert.ok(!(await galleryIds()).includes(id));
  const admins = await admin.get('/admin/api/photos?pending=true');
  const row = admins.body.photos.find((p: any) => p.id === id);
  assert.equal(row.is_visible, false);
  assert.equal(row.approved_at, null);
});

test('auto does not bring back a photo an admin hid', async () => {
  const { id } = await uploadAndSettle(await tinyImage('png', 2), 'hidden-later.png');
  assert.ok((await galleryIds()).includes(id));
  assert.equal((await admin.post(`/admin/api/photos/${id}/hide`)).status, 200);
  assert.equal((await admin.post(`/admin/api/photos/${id}/regenerate-thumbnail`)).status, 200);
  await s.services.processing.idle();
  assert.ok(!(await galleryIds()).includes(id));
});
