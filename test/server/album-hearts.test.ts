import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { watchEvents } from '../helpers/sse-text.js';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { addPhoto, clearPhotos } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

const at = (minute: number) => new Date(Date.UTC(2026, 5, 20, 12, minute)).toISOString();
const ids = (r: { body: { photos: { id: string }[] } }) => r.body.photos.map((p) => p.id);

describe('hearts', () => {
  beforeEach(() => clearPhotos(s));

  test('a guest hearts a visible photo once however often it asks, and takes it back the same way', async () => {
    const id = await addPhoto(s, { visible: true });
    const anna = new TestClient(s.url);
    const first = await anna.put(`/api/photos/${id}/heart`);
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { success: true, hearted: true, hearts: 1 });
    assert.match(anna.lastSetCookie.join(';'), /wedding_guest=/, 'the first heart gives the browser its guest cookie');
    assert.deepEqual((await anna.put(`/api/photos/${id}/heart`)).body, { success: true, hearted: true, hearts: 1 });
    // Ben opened the gallery first, as a browser does: his page gave him his guest cookie (hearts
    // sent without one count once per photo and address, and Anna's came from this address).
    const ben = new TestClient(s.url);
    await (await ben.fetch('/gallery')).text();
    assert.deepEqual((await ben.put(`/api/photos/${id}/heart`)).body, { success: true, hearted: true, hearts: 2 });

    const seenByAnna = (await anna.get('/api/photos')).body.photos[0];
    assert.equal(seenByAnna.hearts, 2);
    assert.equal(seenByAnna.hearted, true);
    const seenByStranger = (await new TestClient(s.url).get('/api/photos')).body.photos[0];
    assert.equal(seenByStranger.hearts, 2);
    assert.equal(seenByStranger.hearted, false);

    assert.deepEqual((await anna.del(`/api/photos/${id}/heart`)).body, { success: true, hearted: false, hearts: 1 });
    assert.deepEqual((await anna.del(`/api/photos/${id}/heart`)).body, { success: true, hearted: false, hearts: 1 });
    assert.equal((await anna.get('/api/photos')).body.photos[0].hearted, false);
    const adminPhoto = (await admin.get('/admin/api/photos')).body.photos.find((p: any) => p.id === id);
    assert.equal(adminPhoto.hearts, 1);
  });

  test('a hidden or unknown photo cannot be hearted: 404, and nothing is counted', async () => {
    const hidden = await addPhoto(s, { visible: false });
    const guest = new TestClient(s.url);
    for (const method of ['PUT', 'DELETE']) {
      for (const id of [hidden, 'no-such-photo']) {
        const r = await guest.json(method, `/api/photos/${id}/heart`);
        assert.equal(r.status, 404, `${method} ${id}`);
        assert.equal(r.body.code, 'not_found');
      }
    }
    const row = s.ctx.sqlite.prepare('SELECT hearts FROM photos WHERE id = ?').get(hidden) as { hearts: number };
    assert.equal(row.hearts, 0);
    assert.equal((s.ctx.sqlite.prepare('SELECT count(*) AS n FROM hearts').get() as { n: number }).n, 0);
  });

  test('a heart from another site is refused', async () => {
    const id = await addPhoto(s, { visible: true });
    const r = await new TestClient(s.url).json('PUT', `/api/photos/${id}/heart`, undefined, { origin: 'https://evil.example' });
    assert.equal(r.status, 403);
  });

  test('sort=loved lists most hearts first, newest first among equals; a cached newest-first page still shows new counts', async () => {
    const a = await addPhoto(s, { visible: true, uploadTimestamp: at(1) });
    const b = await addPhoto(s, { visible: true, uploadTimestamp: at(2) });
    const c = await addPhoto(s, { visible: true, uploadTimestamp: at(3) });
    const d = await addPhoto(s, { visible: true, uploadTimestamp: at(4) });
    assert.deepEqual(ids(await admin.get('/api/photos')), [d, c, b, a]);
    const guests = [new TestClient(s.url), new TestClient(s.url), new TestClient(s.url)];
    for (const g of guests) await (await g.fetch('/gallery')).text(); // each page gives its guest cookie
    for (const g of guests) await g.put(`/api/photos/${a}/heart`);
    for (const g of guests.slice(0, 2)) await g.put(`/api/photos/${b}/heart`);
    await guests[0].put(`/api/photos/${c}/heart`);
    const loved = await admin.get('/api/photos?sort=loved');
    assert.equal(loved.status, 200);
    assert.deepEqual(ids(loved), [a, b, c, d]);
    assert.deepEqual(loved.body.photos.map((p: any) => p.hearts), [3, 2, 1, 0]);
    assert.equal(loved.body.pagination.total, 4);
    // c and d tie at one heart each: the newer (d) first.
    await guests[1].put(`/api/photos/${d}/heart`);
    assert.deepEqual(ids(await admin.get('/api/photos?sort=loved')), [a, b, d, c]);
    assert.deepEqual(ids(await admin.get('/api/photos?sort=loved&limit=2&offset=2')), [d, c]);
    const newest = await admin.get('/api/photos');
    assert.deepEqual(newest.body.photos.map((p: any) => p.hearts), [1, 1, 2, 3]);
    assert.equal((await admin.get('/api/photos?sort=best')).status, 400);
  });
});

describe('highlights', () => {
  beforeEach(() => clearPhotos(s));

  test('moderators mark highlights, the gallery filters by them; family members get 403', async () => {
    const a = await addPhoto(s, { visible: true, uploadTimestamp: at(1) });
    const b = await addPhoto(s, { visible: true, uploadTimestamp: at(2) });
    const r = await admin.post(`/admin/api/photos/${a}/highlight`, { highlighted: true });
    assert.equal(r.status, 200);
    assert.equal(r.body.photo.highlighted, true);
    const bride = await userClient(s.url, admin, 'bride');
    assert.equal((await bride.post(`/admin/api/photos/${b}/highlight`, { highlighted: true })).status, 200);
    const family = await userClient(s.url, admin, 'family');
    const refused = await family.post(`/admin/api/photos/${b}/highlight`, { highlighted: false });
    assert.equal(refused.status, 403);
    assert.equal((await admin.post(`/admin/api/photos/${b}/highlight`, { highlighted: 'yes' })).status, 400);
    assert.equal((await admin.post(`/admin/api/photos/nope/highlight`, { highlighted: true })).status, 404);

    const list = await admin.get('/api/photos?highlights=true');
    assert.deepEqual(ids(list), [b, a]);
    assert.equal(list.body.pagination.total, 2);
    await admin.post(`/admin/api/photos/${b}/highlight`, { highlighted: false });
    assert.deepEqual(ids(await admin.get('/api/photos?highlights=true')), [a]);
    const all = (await admin.get('/api/photos')).body.photos;
    assert.deepEqual(all.map((p: any) => [p.id, p.highlighted]), [[b, false], [a, true]]);
  });

  test('wall_source "highlights": the wall lists only highlights and its stream brings only them', async () => {
    const plain = await addPhoto(s, { visible: true, uploadTimestamp: at(1) });
    const star = await addPhoto(s, { visible: true, uploadTimestamp: at(2) });
    await admin.post(`/admin/api/photos/${star}/highlight`, { highlighted: true });
    assert.deepEqual(ids(await admin.get('/api/photos?view=wall')), [star, plain]);
    const wall = await watchEvents(s.url);
    try {
      await wall.waitFor('ready');
      assert.equal((await admin.put('/admin/api/settings', { wall_source: 'highlights' })).status, 200);
      assert.deepEqual(await wall.waitFor('wall-state'), { paused: false, blank: false, layout: 'single', source: 'highlights' });
      assert.deepEqual(ids(await admin.get('/api/photos?view=wall')), [star]);
      assert.equal((await admin.get('/api/settings')).body.settings.wall_source, 'highlights');

      // Approving a plain photo sends nothing; a highlight approved goes up; un-highlighting takes it down.
      const late = await addPhoto(s, { visible: false, uploadTimestamp: at(3) });
      const lateStar = await addPhoto(s, { visible: false, uploadTimestamp: at(4) });
      await admin.post(`/admin/api/photos/${lateStar}/highlight`, { highlighted: true });
      await admin.post(`/admin/api/photos/${late}/approve`);
      await admin.post(`/admin/api/photos/${lateStar}/approve`);
      assert.equal((await wall.waitFor('photo-visible')).id, lateStar);
      await admin.post(`/admin/api/photos/${star}/highlight`, { highlighted: false });
      assert.deepEqual(await wall.waitFor('photo-hidden'), { id: star });
      assert.ok(!wall.text().includes(`"id":"${late}"`), 'the plain photo never reached the wall');
      assert.equal((await admin.put('/admin/api/settings', { wall_source: 'everything' })).status, 400);
    } finally {
      await wall.close();
      await admin.put('/admin/api/settings', { wall_source: 'all' });
    }
  });
});
