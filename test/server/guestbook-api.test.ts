import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { postMessage } from '../helpers/guestbook.js';

let s: TestServer;
let admin: TestClient;
let anna: TestClient;
let ben: TestClient;
before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin());
  ben = new TestClient(s.url);
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM guestbook WHERE id = ?').get(id) as any;
const guestCookie = (c: TestClient) => c.cookieHeader().match(/wedding_guest=([^;]+)/)?.[1];
const listed = async () => (await new TestClient(s.url).get('/api/guestbook?limit=100')).body.entries.map((e: any) => e.message);
const activity = () => (s.ctx.sqlite.prepare('SELECT type, description, user_name FROM activity ORDER BY id').all() as any[]);

test('manual moderation: a new message is stored hidden (201, status pending), not listed until approved', async () => {
  const r = await postMessage(anna, { message: '  Congratulations, you two!\r\nSo happy for you.  ', name: ' Anna\u0007 ' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.deepEqual(Object.keys(r.body).sort(), ['entry', 'success']);
  assert.deepEqual(Object.keys(r.body.entry).sort(), ['id', 'status']);
  assert.equal(r.body.entry.status, 'pending');
  const stored = row(r.body.entry.id);
  assert.equal(stored.message, 'Congratulations, you two!\nSo happy for you.', 'trimmed, line breaks kept as \\n');
  assert.equal(stored.name, 'Anna', 'the name is cleaned like uploader_name');
  assert.equal(stored.guest_id, guestCookie(anna), 'the wedding_guest cookie is set and recorded');
  assert.equal(stored.is_visible, 0);
  assert.deepEqual(await listed(), []);

  const approve = await admin.post(`/admin/api/guestbook/${r.body.entry.id}/approve`);
  assert.equal(approve.status, 200);
  assert.equal(approve.body.entry.status, 'visible');
  assert.equal(approve.body.entry.is_visible, true);
  assert.ok(approve.body.entry.approved_at);
  assert.deepEqual(await listed(), ['Congratulations, you two!\nSo happy for you.']);
  const pub = (await ben.get('/api/guestbook')).body;
  assert.deepEqual(Object.keys(pub.entries[0]).sort(), ['audio_url', 'created_at', 'duration', 'id', 'message', 'name']);
  assert.equal(pub.entries[0].name, 'Anna');
  assert.equal(pub.entries[0].audio_url, null);
  assert.deepEqual(pub.pagination, { total: 1, limit: 20, offset: 0, has_more: false });

  const acts = activity();
  assert.ok(acts.some((a) => a.type === 'upload' && a.description === 'Anna wrote in the guestbook'), JSON.stringify(acts));
  assert.ok(acts.some((a) => a.type === 'approval' && a.description === 'Approved a guestbook message from Anna' && a.user_name === 'Administrator'));

  const hide = await admin.post(`/admin/api/guestbook/${r.body.entry.id}/hide`);
  assert.equal(hide.body.entry.status, 'pending');
  assert.deepEqual(await listed(), []);
});

test('auto moderation: a message without a voice note is visible at once', async () => {
  assert.equal((await admin.put('/admin/api/settings', { moderation: 'auto' })).status, 200);
  try {
    const r = await postMessage(ben, { message: 'Here is to love!' });
    assert.equal(r.status, 201);
    assert.equal(r.body.entry.status, 'visible');
    assert.equal(row(r.body.entry.id).name, null, 'no name: anonymous');
    assert.deepEqual(await listed(), ['Here is to love!']);
    assert.ok(activity().some((a) => a.description === 'A guest wrote in the guestbook'));
  } finally {
    await admin.put('/admin/api/settings', { moderation: 'manual' });
  }
});

test('GET /api/guestbook pages newest first like the gallery; limit capped at 100, bad numbers 400', async () => {
  for (const m of ['one', 'two', 'three']) {
    const r = await postMessage(ben, { message: m });
    await admin.post(`/admin/api/guestbook/${r.body.entry.id}/approve`);
  }
  const first = (await ben.get('/api/guestbook?limit=2')).body;
  assert.deepEqual(first.entries.map((e: any) => e.message), ['three', 'two']);
  assert.deepEqual(first.pagination, { total: 4, limit: 2, offset: 0, has_more: true });
  const second = (await ben.get('/api/guestbook?limit=2&offset=2')).body;
  assert.deepEqual(second.entries.map((e: any) => e.message), ['one', 'Here is to love!']);
  assert.equal(second.pagination.has_more, false);
  assert.equal((await ben.get('/api/guestbook?limit=500')).body.pagination.limit, 100);
  assert.equal((await ben.get('/api/guestbook?offset=-1')).status, 400);
});

test('a guest lists their own messages, hidden ones included, and nobody else\'s', async () => {
  const mine = (await anna.get('/api/my/guestbook')).body;
  assert.equal(mine.entries.length, 1);
  assert.equal(mine.entries[0].status, 'pending', 'hidden again by the admin');
  assert.equal(mine.entries[0].audio_status, 'none');
  const bens = (await ben.get('/api/my/guestbook')).body.entries.map((e: any) => e.message);
  assert.deepEqual(bens, ['three', 'two', 'one', 'Here is to love!']);
  const stranger = new TestClient(s.url);
  assert.deepEqual((await stranger.get('/api/my/guestbook')).body.entries, []);
});

test("DELETE /api/my/guestbook/{id}: own message only; another guest's or an unknown id is 404 and changes nothing", async () => {
  const annas = (await anna.get('/api/my/guestbook')).body.entries[0].id;
  const theft = await ben.del(`/api/my/guestbook/${annas}`);
  assert.equal(theft.status, 404);
  assert.equal(theft.body.error, 'Message not found.');
  assert.ok(row(annas), 'still there');
  assert.equal((await ben.del('/api/my/guestbook/no-such-id')).status, 404);
  const own = await anna.del(`/api/my/guestbook/${annas}`);
  assert.equal(own.status, 200);
  assert.deepEqual(own.body, { success: true });
  assert.equal(row(annas), undefined);
  assert.ok(activity().some((a) => a.description === 'Anna deleted their guestbook message'));
  // From another site, refused like any guest's change.
  const bensOwn = (await ben.get('/api/my/guestbook')).body.entries[0].id;
  const cross = await ben.json('DELETE', `/api/my/guestbook/${bensOwn}`, undefined, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  assert.equal(cross.status, 403);
  assert.ok(row(bensOwn));
});

test('admin list: status filters, pagination and the pending count; a bad status is 400', async () => {
  const p = await postMessage(anna, { message: 'waiting', name: 'Anna' });
  const all = (await admin.get('/admin/api/guestbook')).body;
  assert.equal(all.pagination.total, 5);
  assert.equal(all.pending, 1);
  assert.deepEqual(Object.keys(all.entries[0]).sort(), ['approved_at', 'audio_error', 'audio_status', 'audio_url', 'created_at', 'duration', 'id', 'is_visible', 'message', 'name', 'status']);
  const pending = (await admin.get('/admin/api/guestbook?status=pending')).body;
  assert.deepEqual(pending.entries.map((e: any) => e.id), [p.body.entry.id]);
  const visible = (await admin.get('/admin/api/guestbook?status=visible&per_page=2&page=2')).body;
  assert.deepEqual(visible.pagination, { page: 2, per_page: 2, pages: 2, total: 4, has_prev: true, has_next: false });
  const bad = await admin.get('/admin/api/guestbook?status=hidden');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.code, 'invalid_input');
  assert.equal((await admin.post('/admin/api/guestbook/no-such-id/approve')).status, 404);
  const dash = (await admin.get('/admin/api/dashboard')).body.stats;
  assert.equal(dash.pending_guestbook, 1);
  assert.equal(dash.total_guestbook, 5);
});

test('roles: signed out 401; family may approve and hide but not delete (403); an admin deletes', async () => {
  const id = (await admin.get('/admin/api/guestbook?status=pending')).body.entries[0].id;
  const out = new TestClient(s.url);
  assert.equal((await out.get('/admin/api/guestbook')).status, 401);
  assert.equal((await out.post(`/admin/api/guestbook/${id}/approve`)).status, 401);
  const family = await userClient(s.url, admin, 'family');
  assert.equal((await family.get('/admin/api/guestbook')).status, 200);
  assert.equal((await family.post(`/admin/api/guestbook/${id}/approve`)).status, 200);
  assert.equal((await family.post(`/admin/api/guestbook/${id}/hide`)).status, 200);
  const denied = await family.del(`/admin/api/guestbook/${id}`);
  assert.equal(denied.status, 403);
  assert.equal(denied.body.error, 'Insufficient permissions. Admin role required.');
  const bride = await userClient(s.url, admin, 'bride');
  assert.equal((await bride.del(`/admin/api/guestbook/${id}`)).status, 403);
  assert.ok(row(id));
  const gone = await admin.del(`/admin/api/guestbook/${id}`);
  assert.equal(gone.status, 200);
  assert.equal(row(id), undefined);
  assert.equal((await admin.del(`/admin/api/guestbook/${id}`)).status, 404);
  assert.ok(activity().some((a) => a.description === 'Deleted a guestbook message from Anna' && a.user_name === 'Administrator'));
});
