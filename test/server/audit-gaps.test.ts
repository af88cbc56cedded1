// Cover changes are in the audit log; guests' ZIP downloads add at most one entry per address an hour.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { AuditLog } from '../../server/audit/audit-log.js';
import { sample } from '../helpers/samples.js';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;
before(async () => {
  ({ s, admin } = await serverWithAdmin({ TRUST_PROXY: 'true' }));
});
after(() => s.close());

const entries = async (action: string) => {
  const r = await admin.get(`/admin/api/audit?action=${action}&limit=100`);
  assert.equal(r.status, 200);
  return r.body.entries as { action: string; username: string | null; ids: string[] | null; address: string | null }[];
};

test('uploading and removing the cover are audited with who did it', async () => {
  const fd = new FormData();
  fd.append('file', new Blob([fs.readFileSync(sample('orientation_portrait_6.jpg'))], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await admin.fetch('/admin/api/settings/cover', { method: 'POST', body: fd, headers: { origin: s.url } });
  assert.equal(res.status, 201);
  const id = (await res.json()).cover_url.match(/([0-9a-f-]{36})\.webp$/)[1];
  assert.equal((await admin.del('/admin/api/settings/cover')).status, 200);

  const up = await entries('settings.cover_upload');
  assert.equal(up.length, 1);
  assert.equal(up[0].username, 'admin');
  assert.deepEqual(up[0].ids, [id]);
  const removed = await entries('settings.cover_remove');
  assert.equal(removed.length, 1);
  assert.equal(removed[0].username, 'admin');
});

test("a guest's ZIP downloads add one audit entry per address an hour; an admin's export is recorded each time", async () => {
  assert.equal((await admin.put('/admin/api/settings', { guest_downloads: true })).status, 200);
  const up = await uploadFile(s.url, await tinyImage('jpeg', 901), 'one.jpg');
  assert.equal((await admin.post(`/admin/api/photos/${up.body.photo_id}/approve`)).status, 200);
  const zip = async (address: string) => {
    const r = await fetch(`${s.url}/api/export.zip`, { headers: { 'x-forwarded-for': address } });
    assert.equal(r.status, 200);
    await r.arrayBuffer();
  };
  for (let i = 0; i < 5; i++) await zip('203.0.113.7');
  await zip('203.0.113.8');
  await zip('203.0.113.8');
  const guests = (await entries('export.zip')).filter((e) => e.username === null);
  assert.deepEqual(guests.map((e) => e.address).sort(), ['203.0.113.7', '203.0.113.8']);

  for (let i = 0; i < 2; i++) {
    const r = await admin.fetch('/admin/api/export.zip?scope=visible');
    assert.equal(r.status, 200);
    await r.arrayBuffer();
  }
  assert.equal((await entries('export.zip')).filter((e) => e.username === 'admin').length, 2);
});

test('the hour is counted from the entry: after it, the same address is recorded again', async () => {
  let now = Date.parse('2026-06-06T12:00:00Z');
  const log = new AuditLog(s.ctx.db, () => now);
  log.recordAnonymous('test.anonymous', '198.51.100.1');
  now += 59 * 60_000;
  log.recordAnonymous('test.anonymous', '198.51.100.1');
  log.recordAnonymous('test.anonymous', '198.51.100.2');
  now += 2 * 60_000;
  log.recordAnonymous('test.anonymous', '198.51.100.1');
  const { entries: rows } = await log.list({ action: 'test.anonymous', limit: 10, offset: 0 });
  assert.deepEqual(rows.map((e) => e.address).reverse(), ['198.51.100.1', '198.51.100.2', '198.51.100.1']);
  await log.stop();
});
