import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient, userClient } from '../helpers/server.js';
import { addPhoto, clearPhotos, testVideo } from './photos-fixture.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
const clients: Record<string, TestClient> = {};
before(async () => {
  s = await startTestServer();
  admin = new TestClient(s.url);
  await admin.login();
  clients.guest = new TestClient(s.url);
  for (const role of ['family', 'bride', 'groom'] as const) clients[role] = await userClient(s.url, admin, role);
  clients.admin = admin;
});
after(() => s.close());

const ADMIN_PHOTO_FIELDS = ['id', 'original_filename', 'thumbnail_url', 'content_type', 'file_size', 'width', 'height', 'upload_timestamp', 'is_visible', 'uploader_name', 'camera_make', 'camera_model', 'status', 'date_taken', 'display_url'];
const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 12, minute)).toISOString();
const events = async () => (await s.services.bus.since(0)).map((e) => ({ type: e.type, id: (e.data as { id: string }).id, data: e.data as any }));

type Role = 'guest' | 'family' | 'bride' | 'groom' | 'admin';
const ANY: Role[] = ['family', 'bride', 'groom', 'admin'];
const MODERATORS: Role[] = ['bride', 'groom', 'admin'];
const DELETERS: Role[] = ['admin'];

describe('who may call each photo route (SPEC §6)', () => {
  const routes: { name: string; allowed: Role[]; call: (c: TestClient, id: string) => Promise<{ status: number; body: any }> }[] = [
    { name: 'GET list', allowed: ANY, call: (c) => c.get('/admin/api/photos') },
    { name: 'GET dashboard', allowed: ANY, call: (c) => c.get('/admin/api/dashboard') },
    { name: 'toggle-visibility', allowed: ANY, call: (c, id) => c.post(`/admin/api/photos/${id}/toggle-visibility`) },
    { name: 'approve', allowed: ANY, call: (c, id) => c.post(`/admin/api/photos/${id}/approve`) },
    { name: 'hide', allowed: ANY, call: (c, id) => c.post(`/admin/api/photos/${id}/hide`) },
    { name: 'bulk-toggle-visibility', allowed: ANY, call: (c, id) => c.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: [id], action: 'show' }) },
    { name: 'download', allowed: ANY, call: (c, id) => c.get(`/admin/api/photos/${id}/download`) },
    { name: 'rotate', allowed: MODERATORS, call: (c, id) => c.post(`/admin/api/photos/${id}/rotate`, { degrees: 90 }) },
    { name: 'regenerate-thumbnail', allowed: MODERATORS, call: (c, id) => c.post(`/admin/api/photos/${id}/regenerate-thumbnail`) },
    { name: 'regenerate-all-thumbnails', allowed: MODERATORS, call: (c) => c.post('/admin/api/photos/regenerate-all-thumbnails') },
    { name: 'delete', allowed: DELETERS, call: (c, id) => c.del(`/admin/api/photos/${id}/delete`) },
    { name: 'bulk-delete', allowed: DELETERS, call: (c, id) => c.del('/admin/api/photos/bulk-delete', { photo_ids: [id] }) },
  ];
  for (const r of routes) {
    test(`${r.name}: guest 401, ${r.allowed.join('/')} allowed, others 403`, async () => {
      for (const role of ['guest', 'family', 'bride', 'groom', 'admin'] as Role[]) {
        const id = await addPhoto(s, { visible: false, derivatives: false });
        const res = await r.call(clients[role], id);
        const label = `${r.name} as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
        if (role === 'guest') {
          assert.equal(res.status, 401, label);
          assert.equal(res.body.code, 'not_signed_in', label);
        } else if (!r.allowed.includes(role)) {
          assert.equal(res.status, 403, label);
          assert.match(res.body.error, /^Insufficient permissions/, label);
          assert.equal(res.body.code, 'forbidden', label);
        } else {
          // Re-processing may fail on a file (422 with a readable error); the role check passed.
          assert.ok(res.status === 200 || (res.status === 422 && typeof res.body.error === 'string' && res.body.code === 'unprocessable'), label);
          assert.equal(res.body.success, res.status === 200, label);
        }
        if (role === 'guest' || !r.allowed.includes(role)) assert.ok(await s.ctx.db.selectFrom('photos').select('id').where('id', '=', id).executeTakeFirst(), 'a refused call changes nothing');
      }
    });
  }
});

describe('GET /admin/api/photos', () => {
  beforeEach(() => clearPhotos(s));

  test('show_all, visible only and the pending queue; newest first; SPEC fields', async () => {
    const v1 = await addPhoto(s, { visible: true, uploadTimestamp: at(1) });
    const h1 = await addPhoto(s, { visible: false, uploadTimestamp: at(2), derivatives: false });
    const v2 = await addPhoto(s, { visible: true, uploadTimestamp: at(3), file: testVideo() });
    const h2 = await addPhoto(s, { visible: false, uploadTimestamp: at(4) });
    const ids = async (q: string) => (await admin.get(`/admin/api/photos${q}`)).body.photos.map((p: any) => p.id);
    assert.deepEqual(await ids('?show_all=true'), [h2, v2, h1, v1]);
    assert.deepEqual(await ids(''), [h2, v2, h1, v1], 'all photos by default');
    assert.deepEqual(await ids('?show_all=false'), [v2, v1]);
    assert.deepEqual(await ids('?show_all=false&pending=true&per_page=50'), [h2, h1]);

    const r = await clients.family.get('/admin/api/photos?page=1&per_page=20&show_all=true');
    assert.equal(r.status, 200);
    const p = r.body.photos.find((x: any) => x.id === v1);
    for (const f of ADMIN_PHOTO_FIELDS) assert.ok(f in p, `field ${f}`);
    assert.equal(p.is_visible, true);
    assert.equal(p.status, 'complete');
    assert.equal(p.file_size, fs.statSync(sample('Canon_40D.jpg')).size);
    assert.equal(p.camera_make, 'Canon');
    assert.equal(p.thumbnail_url, `/media/${v1}/thumb?v=1`);
    const hidden = r.body.photos.find((x: any) => x.id === h1);
    assert.equal(hidden.is_visible, false);
    assert.equal(hidden.thumbnail_url, null);
    assert.equal(hidden.status, 'processing');
    assert.equal(r.body.photos.find((x: any) => x.id === v2).content_type, 'video/mp4');
  });

  test('pages: per_page default 20, capped at 100, with page, pages, total, has_prev, has_next', async () => {
    for (let i = 0; i < 45; i++) await addPhoto(s, { visible: i % 2 === 0, derivatives: false, uploadTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() });
    const first = await admin.get('/admin/api/photos?show_all=true');
    assert.equal(first.body.photos.length, 20);
    assert.deepEqual(first.body.pagination, { page: 1, per_page: 20, pages: 3, total: 45, has_prev: false, has_next: true });
    const last = await admin.get('/admin/api/photos?show_all=true&page=3');
    assert.equal(last.body.photos.length, 5);
    assert.equal(last.body.pagination.has_prev, true);
    assert.equal(last.body.pagination.has_next, false);
    const big = await admin.get('/admin/api/photos?per_page=500');
    assert.equal(big.body.photos.length, 45);
    assert.equal(big.body.pagination.per_page, 100);
    const queue = await admin.get('/admin/api/photos?show_all=false&pending=true&per_page=50');
    assert.equal(queue.body.pagination.total, 22);
    assert.ok(queue.body.photos.every((p: any) => p.is_visible === false));
    for (const q of ['page=0', 'page=x', 'per_page=-1', 'show_all=maybe']) {
      const bad = await admin.get(`/admin/api/photos?${q}`);
      assert.equal(bad.status, 400, q);
      assert.equal(bad.body.success, false);
      assert.equal(bad.body.code, 'invalid_input', q);
    }
  });
});

describe('visibility changes', () => {
  test('approve makes a hidden photo visible, records the approval and tells the wall', async () => {
    const bride = clients.bride;
    const id = await addPhoto(s, { visible: false, originalFilename: 'first-dance.jpg' });
    assert.ok(!(await clients.guest.get('/api/photos')).body.photos.some((p: any) => p.id === id));
    const r = await bride.post(`/admin/api/photos/${id}/approve`);
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.photo.id, id);
    assert.equal(r.body.photo.is_visible, true);
    assert.ok(r.body.photo.approved_at);
    assert.ok((await clients.guest.get('/api/photos')).body.photos.some((p: any) => p.id === id));
    const ev = (await events()).filter((e) => e.id === id);
    assert.equal(ev.length, 1);
    assert.equal(ev[0].type, 'photo-visible');
    assert.equal(ev[0].data.thumbnail_url, `/media/${id}/thumb?v=1`);
    assert.equal(ev[0].data.original_filename, 'first-dance.jpg');
    const act = await s.ctx.db.selectFrom('activity').selectAll().where('type', '=', 'approval').orderBy('id', 'desc').executeTakeFirstOrThrow();
    assert.match(act.description, /first-dance\.jpg/);
    assert.equal(act.user_name, 'bride person');
    // Approving again changes nothing and sends nothing.
    await bride.post(`/admin/api/photos/${id}/approve`);
    assert.equal((await events()).filter((e) => e.id === id).length, 1);
  });

  test('hide and toggle flip visibility; hiding a visible photo tells the wall', async () => {
    const id = await addPhoto(s, { visible: true });
    const hidden = await clients.family.post(`/admin/api/photos/${id}/hide`);
    assert.equal(hidden.body.photo.is_visible, false);
    let ev = (await events()).filter((e) => e.id === id);
    assert.deepEqual(ev.map((e) => e.type), ['photo-hidden']);
    await clients.family.post(`/admin/api/photos/${id}/hide`);
    assert.equal((await events()).filter((e) => e.id === id).length, 1, 'hiding a hidden photo sends nothing');
    const t1 = await clients.groom.post(`/admin/api/photos/${id}/toggle-visibility`);
    assert.equal(t1.body.photo.is_visible, true);
    const t2 = await clients.groom.post(`/admin/api/photos/${id}/toggle-visibility`);
    assert.equal(t2.body.photo.is_visible, false);
    ev = (await events()).filter((e) => e.id === id);
    assert.deepEqual(ev.map((e) => e.type), ['photo-hidden', 'photo-visible', 'photo-hidden']);
    for (const action of ['approve', 'hide', 'toggle-visibility']) {
      const r = await admin.post(`/admin/api/photos/unknown-id/${action}`);
      assert.equal(r.status, 404);
      assert.equal(r.body.success, false);
      assert.deepEqual(r.body, { success: false, error: 'Photo not found.', code: 'not_found' });
    }
  });

  test('bulk show and hide report unknown ids and validate the list', async () => {
    const a = await addPhoto(s, { visible: false });
    const b = await addPhoto(s, { visible: true });
    const r = await clients.family.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: [a, b, 'ghost'], action: 'show' });
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.updated, 2);
    assert.deepEqual(r.body.not_found, ['ghost']);
    assert.equal(typeof r.body.message, 'string');
    const list = (await admin.get('/admin/api/photos?show_all=true&per_page=100')).body.photos;
    assert.ok([a, b].every((id) => list.find((p: any) => p.id === id).is_visible));
    assert.deepEqual((await events()).filter((e) => e.id === a || e.id === b).map((e) => `${e.type}:${e.id === a ? 'a' : 'b'}`), ['photo-visible:a'], 'only the photo that changed is announced');
    const hide = await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: [a, b], action: 'hide' });
    assert.equal(hide.body.updated, 2);
    assert.deepEqual(hide.body.not_found, []);
    assert.equal((await clients.guest.get('/api/photos?limit=100')).body.photos.filter((p: any) => p.id === a || p.id === b).length, 0);

    const tooMany = Array.from({ length: 501 }, (_, i) => `id${i}`);
    const bad: [unknown, RegExp][] = [
      [{ photo_ids: tooMany, action: 'show' }, /At most 500/],
      [{ photo_ids: [], action: 'show' }, /non-empty list/],
      [{ photo_ids: 'abc', action: 'show' }, /non-empty list/],
      [{ photo_ids: [1, 2], action: 'show' }, /string/],
      [{ photo_ids: [a], action: 'flip' }, /action/],
      [{}, /photo_ids/],
    ];
    for (const [body, msg] of bad) {
      const res = await admin.post('/admin/api/photos/bulk-toggle-visibility', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(res.body.error, msg);
      assert.equal(res.body.code, 'invalid_input');
    }
    const fine = Array.from({ length: 500 }, (_, i) => `id${i}`);
    const ok = await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: fine, action: 'hide' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.not_found.length, 500);
  });
});

describe('deleting', () => {
  test('delete removes the row, the original and every derivative, and tells the wall', async () => {
    const id = await addPhoto(s, { visible: true });
    const row = await s.ctx.db.selectFrom('photos').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const original = path.join(s.dataDir, row.stored_path);
    const derived = path.join(s.ctx.paths.derived, id);
    assert.ok(fs.existsSync(original) && fs.existsSync(derived));
    const r = await admin.del(`/admin/api/photos/${id}/delete`);
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(fs.existsSync(original), false);
    assert.equal(fs.existsSync(derived), false);
    assert.equal((await admin.get('/admin/api/photos?per_page=100')).body.photos.some((p: any) => p.id === id), false);
    assert.equal((await admin.fetch(`/media/${id}/thumb?v=1`)).status, 404);
    assert.deepEqual((await events()).filter((e) => e.id === id).map((e) => e.type), ['photo-hidden']);
    const again = await admin.del(`/admin/api/photos/${id}/delete`);
    assert.equal(again.status, 404);
    assert.equal(again.body.code, 'not_found');
  });

  test('bulk delete deletes what it knows and reports the rest', async () => {
    const a = await addPhoto(s, { visible: false });
    const b = await addPhoto(s, { visible: false, file: testVideo() });
    const r = await admin.del('/admin/api/photos/bulk-delete', { photo_ids: [a, 'ghost', b] });
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.deleted, 2);
    assert.deepEqual(r.body.failed_deletes.map((f: any) => f.id), ['ghost']);
    assert.match(r.body.message, /Deleted 2 photos/);
    assert.equal(fs.existsSync(path.join(s.ctx.paths.derived, a)), false);
    assert.equal(fs.existsSync(path.join(s.ctx.paths.derived, b)), false);
    assert.equal((await events()).filter((e) => e.id === a || e.id === b).length, 0, 'hidden photos were never on the wall');
    const tooMany = await admin.del('/admin/api/photos/bulk-delete', { photo_ids: Array.from({ length: 501 }, (_, i) => `x${i}`) });
    assert.equal(tooMany.status, 400);
    assert.equal(tooMany.body.code, 'invalid_input');
    assert.match(tooMany.body.error, /At most 500/);
    assert.equal((await admin.del('/admin/api/photos/bulk-delete', { photo_ids: [] })).status, 400);
  });
});

describe('rotate and regenerate input', () => {
  test('rotate accepts only 90, 180 or 270 and refuses videos and unknown ids', async () => {
    const id = await addPhoto(s, { visible: true });
    for (const degrees of [45, -90, 360, 'ninety', 0]) {
      const r = await admin.post(`/admin/api/photos/${id}/rotate`, { degrees });
      assert.equal(r.status, 400, String(degrees));
      assert.equal(r.body.error, 'degrees must be 90, 180 or 270.');
    }
    const video = await addPhoto(s, { visible: true, file: testVideo() });
    const v = await admin.post(`/admin/api/photos/${video}/rotate`, { degrees: 90 });
    assert.equal(v.status, 400);
    assert.equal(v.body.error, 'Videos cannot be rotated.');
    assert.equal(v.body.code, 'invalid_input');
    for (const ghost of [admin.post('/admin/api/photos/ghost/rotate', { degrees: 90 }), admin.post('/admin/api/photos/ghost/regenerate-thumbnail')]) {
      const g = await ghost;
      assert.equal(g.status, 404);
      assert.equal(g.body.code, 'not_found');
    }
  });

  test('regenerate-all answers statistics over every photo', async () => {
    await clearPhotos(s);
    await addPhoto(s, { visible: true });
    await addPhoto(s, { visible: false, file: sample('Nikon_D70.jpg') });
    const r = await clients.groom.post('/admin/api/photos/regenerate-all-thumbnails');
    assert.equal(r.status, 200);
    assert.equal(r.body.success, true);
    assert.equal(r.body.statistics.processed, 2);
    assert.equal(r.body.statistics.succeeded + r.body.statistics.failed, 2);
  });
});
