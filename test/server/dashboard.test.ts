import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient, userClient } from '../helpers/server.js';
import { addPhoto } from './photos-fixture.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
before(async () => {
  s = await startTestServer({ STORAGE_LIMIT_GB: '2' });
  admin = new TestClient(s.url);
  await admin.login();
});
after(() => s.close());

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const utcDay = (iso: string) => iso.slice(0, 10);
const USER_STATS = ['total_users', 'active_users', 'admin_users', 'family_users'];

describe('GET /admin/api/dashboard', () => {
  test('every field of the dashboard response, with the trend, cameras, activity and recent photos', async () => {
    const cameras = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Panasonic_DMC-FZ30.jpg', 'Fujifilm_FinePix_E500.jpg'];
    for (const f of cameras) await addPhoto(s, { file: sample(f), visible: true, uploadTimestamp: daysAgo(1) });
    await addPhoto(s, { file: sample('Canon_40D.jpg'), visible: false, uploadTimestamp: daysAgo(0.01) });
    await addPhoto(s, { visible: false, derivatives: false, uploadTimestamp: daysAgo(10) });
    await addPhoto(s, { visible: true, derivatives: false, uploadTimestamp: daysAgo(45) });
    await userClient(s.url, admin, 'family');

    const r = await admin.get('/admin/api/dashboard');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    const st = r.body.stats;
    assert.equal(st.total_photos, 8);
    assert.equal(st.visible_photos, 6);
    assert.equal(st.recent_uploads, 6, 'last 7 days');
    assert.equal(st.uploads_this_week, 6);
    assert.equal(st.storage_limit, 2 * 1024 ** 3);
    assert.ok(st.storage_used > 0);
    assert.equal(st.total_users, 2);
    assert.equal(st.active_users, 2);
    assert.equal(st.admin_users, 1);
    assert.equal(st.family_users, 1);

    const days = r.body.chart_data.uploads_by_day;
    assert.equal(days.length, 30);
    assert.deepEqual(Object.keys(days[0]).sort(), ['date', 'uploads']);
    assert.equal(days[29].date, utcDay(new Date().toISOString()), 'ends today');
    assert.deepEqual(days.map((d: any) => d.date), [...days.map((d: any) => d.date)].sort(), 'oldest first');
    assert.equal(days.reduce((n: number, d: any) => n + d.uploads, 0), 7, 'the 45-day-old upload is outside the chart');
    assert.ok(days.filter((d: any) => d.uploads === 0).length >= 26, 'days without uploads are present as zeros');
    assert.equal(days.find((d: any) => d.date === utcDay(daysAgo(10))).uploads, 1);

    assert.deepEqual(r.body.chart_data.camera_stats[0], { name: 'Canon EOS 40D', value: 4 }, 'the default fixture is a Canon');
    assert.equal(r.body.chart_data.camera_stats.length, 5);

    assert.equal(r.body.recent_photos.length, 6);
    assert.equal(typeof r.body.recent_photos[0].is_visible, 'boolean');
    assert.ok(r.body.recent_photos.every((p: any, i: number, a: any[]) => i === 0 || a[i - 1].upload_timestamp >= p.upload_timestamp));

    assert.ok(Array.isArray(r.body.recent_activity));
    const created = r.body.recent_activity.find((a: any) => a.type === 'user_created');
    assert.ok(created, 'creating a user shows up');
    assert.deepEqual(Object.keys(created).sort(), ['description', 'id', 'timestamp', 'type', 'user_name']);
    assert.deepEqual(
      { can_manage_users: r.body.user_permissions.can_manage_users, can_moderate_photos: r.body.user_permissions.can_moderate_photos, is_admin: r.body.user_permissions.is_admin },
      { can_manage_users: true, can_moderate_photos: true, is_admin: true },
    );
  });

  for (const role of ['bride', 'groom', 'family'] as const) {
    test(`${role} sees the dashboard without the four user statistics`, async () => {
      const c = await userClient(s.url, admin, role);
      const r = await c.get('/admin/api/dashboard');
      assert.equal(r.status, 200);
      for (const k of USER_STATS) assert.equal(k in r.body.stats, false, k);
      assert.equal(typeof r.body.stats.total_photos, 'number');
      assert.equal(r.body.user_permissions.can_manage_users, false);
      assert.equal(r.body.user_permissions.can_moderate_photos, role !== 'family');
    });
  }

  test('without a session the dashboard is a 401 with code not_signed_in', async () => {
    const r = await new TestClient(s.url).get('/admin/api/dashboard');
    assert.equal(r.status, 401);
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'not_signed_in');
  });

  test('an approval appears in recent activity with the approver\'s name', async () => {
    const id = await addPhoto(s, { visible: false, originalFilename: 'cake.jpg' });
    const groom = await userClient(s.url, admin, 'groom');
    await groom.post(`/admin/api/photos/${id}/approve`);
    const r = await admin.get('/admin/api/dashboard');
    const top = r.body.recent_activity[0];
    assert.equal(top.type, 'approval');
    assert.match(top.description, /cake\.jpg/);
    assert.equal(top.user_name, 'groom person');
  });

  test('storage_used counts media on disk and drops right after a delete', async () => {
    const before = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
    const id = await addPhoto(s, { visible: true, file: sample('hdr_iphone_hdr_YES.jpg') });
    const withPhoto = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
    const row = await s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const onDisk = fs.statSync(`${s.dataDir}/${row.stored_path}`).size + fs.statSync(`${s.dataDir}/${row.thumb_path}`).size + fs.statSync(`${s.dataDir}/${row.display_path}`).size;
    assert.equal((await admin.del(`/admin/api/photos/${id}/delete`)).status, 200);
    const after1 = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
    assert.equal(withPhoto - before, onDisk, 'original and derivatives counted');
    assert.equal(after1, before, 'back to what it was before the photo');
    assert.ok(onDisk > 1_900_000);
    // A newly stored photo shows on the next load too.
    await addPhoto(s, { visible: true, file: sample('hdr_iphone_hdr_YES.jpg') });
    const after2 = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
    assert.equal(after2 - before, onDisk);
  });

  test('without STORAGE_LIMIT_GB the limit is the size of the filesystem holding DATA_DIR', async () => {
    const s2 = await startTestServer();
    try {
      const c = new TestClient(s2.url);
      await c.login();
      const r = await c.get('/admin/api/dashboard');
      const fsStat = fs.statfsSync(s2.dataDir);
      assert.equal(r.body.stats.storage_limit, fsStat.blocks * fsStat.bsize);
      assert.equal(r.body.stats.total_photos, 0);
      assert.equal(r.body.recent_photos.length, 0);
      assert.equal(r.body.chart_data.uploads_by_day.length, 30);
      assert.ok(r.body.chart_data.uploads_by_day.every((d: any) => d.uploads === 0));
      assert.deepEqual(r.body.chart_data.camera_stats, []);
    } finally {
      await s2.close();
    }
  });
});
