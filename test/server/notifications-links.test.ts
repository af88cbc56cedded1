// Links in notifications point at PUBLIC_URL or the address an admin saved the notification
// settings from, never at the Host of some other request.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { parseSettingsPatch } from '../../server/settings/settings.service.js';
import { httpReceiver } from '../helpers/receivers.js';
import { startTestServer, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;
let hook: Awaited<ReturnType<typeof httpReceiver>>;

before(async () => {
  hook = await httpReceiver();
  s = await startTestServer(); // no PUBLIC_URL
  admin = new TestClient(s.url);
  await admin.login();
});
after(async () => {
  await s.close();
  await hook.close();
});

/** A request as a browser sent to another name for this server would make it: its own Host header. */
function withHost(path: string, host: string, cookie: string, extra: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}${path}`, { headers: { host, cookie, ...extra } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

test('links use the address the admin saved the notification settings from; later requests with another Host change nothing', async () => {
  const saved = await admin.put('/admin/api/settings', { notify: { webhook_url: `${hook.url}/hook` } });
  assert.equal(saved.status, 200, JSON.stringify(saved.body));
  assert.equal('notify_site_url' in saved.body.settings, false, 'the saved address is not part of the answer');
  assert.equal('notify_site_url' in (await new TestClient(s.url).get('/api/settings')).body.settings, false);

  // Any signed-in user, and the admin too, reaching the server under another name.
  const family = await userClient(s.url, admin, 'family');
  assert.equal(await withHost('/admin/api/dashboard', 'evil.example', family.cookieHeader()), 200);
  assert.equal(await withHost('/admin/api/dashboard', 'evil.example', admin.cookieHeader(), { 'x-forwarded-host': 'evil.example' }), 200);

  // A message sent after them: its link.
  const waiting = hook.next();
  const up = await uploadFile(s.url, await tinyImage('jpeg', 811), 'waiting.jpg');
  assert.equal(up.status, 201);
  assert.equal(await waitForStatus(s.url, up.body.photo_id), 'complete');
  const m = JSON.parse((await waiting).body);
  assert.equal(m.event, 'photos_waiting');
  assert.equal(m.url, `${s.url}/admin/photos?mode=queue`);

  // "Send a test" too.
  const got = hook.next();
  const r = await admin.post('/admin/api/notifications/test');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(JSON.parse((await got).body).url, `${s.url}/admin/dashboard`);

  // The settings page sends back everything it read: nothing in it is unknown to a PUT.
  const page = await admin.get('/admin/api/settings');
  assert.doesNotThrow(() => parseSettingsPatch(page.body.settings));
});
