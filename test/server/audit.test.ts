import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { openDatabase } from '../../server/db/open.js';
import { ADMIN, startTestServer, tempDir, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';
import { runCli } from './backup-helpers.js';
import { addPhoto } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
before(async () => {
  s = await startTestServer({ TRUST_PROXY: 'true' });
  admin = new TestClient(s.url);
  await admin.json('POST', '/admin/api/login', ADMIN, { 'x-forwarded-for': '203.0.113.7' });
});
after(() => s.close());

const entries = async (query = '') => {
  const r = await admin.get(`/admin/api/audit${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
};
const latest = async (action: string) => (await entries(`?action=${action}`)).entries[0];

test('sign-ins and failed ones are recorded with who, how and from which address', async () => {
  const signIn = await latest('sign_in');
  assert.equal(signIn.username, 'admin');
  assert.equal(signIn.address, '203.0.113.7');
  assert.equal(signIn.detail.method, 'password');
  assert.ok(Date.now() - Date.parse(signIn.at) < 60_000);

  const stranger = new TestClient(s.url);
  const r = await stranger.json('POST', '/admin/api/login', { username: 'mallory', password: 'guessing-1' }, { 'x-forwarded-for': '192.0.2.66' });
  assert.equal(r.status, 401);
  const failed = await latest('sign_in.failed');
  assert.equal(failed.username, 'mallory');
  assert.equal(failed.user_id, null);
  assert.equal(failed.address, '192.0.2.66');
  assert.deepEqual(failed.detail, { method: 'password', reason: 'wrong_password' });
});

test('moderation, deletion, rotation, downloads, exports, user and settings changes are recorded with their ids', async () => {
  const [a, b, c] = [await addPhoto(s), await addPhoto(s), await addPhoto(s)];
  assert.equal((await admin.post(`/admin/api/photos/${a}/approve`)).status, 200);
  assert.equal((await admin.post(`/admin/api/photos/${a}/hide`)).status, 200);
  assert.equal((await admin.post('/admin/api/photos/bulk-toggle-visibility', { photo_ids: [a, b], action: 'show' })).status, 200);
  assert.equal((await admin.get(`/admin/api/photos/${b}/download`)).status, 200);
  assert.equal((await admin.post(`/admin/api/photos/${b}/rotate`, { degrees: 90 })).status, 200);
  assert.equal((await admin.json('DELETE', `/admin/api/photos/${c}/delete`)).status, 200);
  const zip = await admin.fetch('/admin/api/export.zip?scope=visible');
  assert.equal(zip.status, 200);
  await zip.arrayBuffer();
  const created = await admin.post('/admin/api/users', { username: 'cousin_ann', email: 'ann@example.com', full_name: 'Ann', role: 'family', password: 'password-ann' });
  assert.equal(created.status, 201);
  assert.equal((await admin.put(`/admin/api/users/${created.body.user.id}`, { role: 'bride', password: 'another-password' })).status, 200);
  assert.equal((await admin.post(`/admin/api/users/${created.body.user.id}/toggle-active`)).status, 200);
  assert.equal((await admin.put('/admin/api/settings', { wall_paused: true, notify: { webhook_url: 'https://hooks.example/T0/B0/secret-token' } })).status, 200);

  assert.deepEqual((await latest('photo.approve')).ids, [a]);
  assert.deepEqual((await latest('photo.hide')).ids, [a]);
  assert.deepEqual((await latest('photo.bulk_show')).ids, [a, b]);
  assert.deepEqual((await latest('photo.download')).ids, [b]);
  const rotate = await latest('photo.rotate');
  assert.deepEqual([rotate.ids, rotate.detail], [[b], { degrees: 90 }]);
  const del = await latest('photo.delete');
  assert.deepEqual(del.ids, [c]);
  assert.equal(del.detail.filename, 'Canon_40D.jpg');
  assert.deepEqual((await latest('export.zip')).detail, { scope: 'visible' });
  const user = await latest('user.create');
  assert.deepEqual(user.ids, [String(created.body.user.id)]);
  assert.deepEqual(user.detail, { username: 'cousin_ann', role: 'family' });
  const update = await latest('user.update');
  assert.deepEqual(update.detail.fields.sort(), ['password', 'role']);
  assert.equal(JSON.stringify(update).includes('another-password'), false, 'never the password');
  assert.deepEqual((await latest('user.deactivate')).ids, [String(created.body.user.id)]);
  const settings = await latest('settings.update');
  assert.deepEqual(settings.detail.keys, ['wall_paused', 'notify']);
  assert.equal(JSON.stringify(settings).includes('secret-token'), false, 'never a secret');
  for (const e of [del, user, settings]) {
    assert.equal(e.username, 'admin');
    assert.equal(e.address, '127.0.0.1', 'these requests came straight, without a proxy header');
  }
});

test('turning codes on and off is recorded', async () => {
  const setup = await admin.post('/admin/api/security/two-step/setup');
  const on = await admin.post('/admin/api/security/two-step/enable', { code: codeAt(setup.body.secret) });
  assert.equal(on.status, 200);
  assert.equal((await admin.post('/admin/api/security/two-step/disable', { code: on.body.recovery_codes[0] })).status, 200);
  assert.equal((await latest('two_step.enable')).username, 'admin');
  assert.equal((await latest('two_step.disable')).username, 'admin');
});

test('the log is paged newest first and filtered by user and action; it lists the actions it holds', async () => {
  const all = await entries('?limit=3');
  assert.equal(all.entries.length, 3);
  assert.ok(all.pagination.total > 10);
  assert.equal(all.pagination.has_more, true);
  const next = await entries('?limit=3&offset=3');
  assert.ok(next.entries[0].id < all.entries[2].id, 'newest first, pages in order');
  assert.ok(all.actions.includes('photo.approve') && all.actions.includes('sign_in.failed'));
  const mallory = await entries('?user=MALLORY');
  assert.ok(mallory.entries.length >= 1);
  for (const e of mallory.entries) assert.equal(e.username, 'mallory');
  const approvals = await entries('?action=photo.approve&user=admin');
  assert.ok(approvals.entries.every((e: any) => e.action === 'photo.approve' && e.username === 'admin'));
  assert.equal((await admin.get('/admin/api/audit?limit=abc')).status, 400);
});

test('only role admin reads the log: bride, groom and family get 403, nobody signed in 401', async () => {
  for (const role of ['bride', 'groom', 'family'] as const) {
    const c = await userClient(s.url, admin, role);
    const r = await c.get('/admin/api/audit');
    assert.equal(r.status, 403, role);
    assert.equal(r.body.error, 'Insufficient permissions. Admin role required.');
  }
  assert.equal((await new TestClient(s.url).get('/admin/api/audit')).status, 401);
});

test('entries older than a year are pruned; younger ones stay', async () => {
  const db = s.writable();
  const day = 24 * 60 * 60 * 1000;
  const insert = db.prepare(`INSERT INTO audit_log (at, username, action) VALUES (?, 'old-timer', ?)`);
  insert.run(new Date(Date.now() - 366 * day).toISOString(), 'photo.approve');
  insert.run(new Date(Date.now() - 300 * day).toISOString(), 'photo.hide');
  assert.equal(await s.services.auditLog.prune(), 1);
  const left = await entries('?user=old-timer');
  assert.deepEqual(left.entries.map((e: any) => e.action), ['photo.hide']);
});

test('a backup holds the audit log', async () => {
  await entries(); // what was recorded is written
  const out = path.join(tempDir('wedding-audit-backup-'), 'b.tar.gz');
  const r = await runCli('backup', [out, '--data-dir', s.dataDir]);
  assert.equal(r.code, 0, r.out);
  const dir = tempDir('wedding-audit-restore-');
  execFileSync('tar', ['xzf', out, '-C', dir]);
  const db = openDatabase(path.join(dir, 'wedding.db'), { readonly: true });
  try {
    const actions = (db.prepare('SELECT DISTINCT action FROM audit_log').all() as { action: string }[]).map((x) => x.action);
    for (const a of ['sign_in', 'sign_in.failed', 'photo.approve', 'photo.delete', 'user.create', 'settings.update']) assert.ok(actions.includes(a), a);
  } finally {
    db.close();
  }
  assert.ok(fs.existsSync(dir));
});
