import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { NOTIFY_EVERY_MS } from '../../server/notifications/notifier.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { httpReceiver, smtpReceiver } from '../helpers/receivers.js';
import { startTestServer, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { sample } from '../helpers/samples.js';
import { makeVideo, tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

let s: TestServer;
let admin: TestClient;
let clock: ManualClock;
let ntfy: Awaited<ReturnType<typeof httpReceiver>>;
let hook: Awaited<ReturnType<typeof httpReceiver>>;
let smtp: Awaited<ReturnType<typeof smtpReceiver>>;
let notify: Record<string, string>;
let seed = 1;

before(async () => {
  [ntfy, hook, smtp] = await Promise.all([httpReceiver(), httpReceiver(), smtpReceiver('wedding', 'smtp-secret')]);
  clock = new ManualClock();
  s = await startTestServer({ PUBLIC_URL: 'https://photos.example' }, undefined, { clock });
  admin = new TestClient(s.url);
  await admin.login();
  notify = {
    ntfy_url: `${ntfy.url}/wedding-topic-7f3k`,
    webhook_url: `${hook.url}/hooks/T0/B0/secret-token`,
    smtp_url: `smtp://wedding:smtp-secret@127.0.0.1:${smtp.port}`,
    from: 'Wedding site <site@example.com>',
    to: 'emma@example.com, james@example.com',
  };
  const r = await admin.put('/admin/api/settings', { notify });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});
after(async () => {
  await s.close();
  await Promise.all([ntfy.close(), hook.close(), smtp.close()]);
});

/** Resolves with the next message to reach `r`, or fails after `ms`. */
function within<T>(p: Promise<T>, ms = 20_000, what = 'a message'): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms))]);
}

async function uploadPhotos(n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = await uploadFile(s.url, await tinyImage('jpeg', seed++), `photo-${seed}.jpg`);
    assert.equal(r.status, 201);
    ids.push(r.body.photo_id);
  }
  for (const id of ids) assert.equal(await waitForStatus(s.url, id), 'complete');
  return ids;
}

test('GET settings never sends a secret back; a PUT that leaves them masked keeps them', async () => {
  const r = await admin.get('/admin/api/settings');
  const text = JSON.stringify(r.body);
  for (const secret of ['smtp-secret', 'wedding-topic-7f3k', 'secret-token', 'hooks/T0']) assert.equal(text.includes(secret), false, secret);
  const n = r.body.settings.notify;
  assert.equal(n.ntfy_url, `${ntfy.url}/••••`);
  assert.equal(n.webhook_url, `${hook.url}/••••`);
  assert.equal(n.smtp_url, `smtp://wedding:••••@127.0.0.1:${smtp.port}`);
  assert.equal(n.to, 'emma@example.com, james@example.com');
  // The settings page sends back what it was shown, with one change.
  const put = await admin.put('/admin/api/settings', { notify: { ...n, to: 'emma@example.com' } });
  assert.equal(put.status, 200);
  assert.equal(JSON.stringify(put.body).includes('smtp-secret'), false);
  const stored = JSON.parse((s.ctx.sqlite.prepare('SELECT data FROM settings').get() as { data: string }).data).notify;
  assert.equal(stored.smtp_url, notify.smtp_url);
  assert.equal(stored.ntfy_url, notify.ntfy_url);
  assert.equal(stored.webhook_url, notify.webhook_url);
  assert.equal(stored.to, 'emma@example.com');
  // Only admins see or change them.
  const bride = await userClient(s.url, admin, 'bride');
  assert.equal((await bride.get('/admin/api/settings')).status, 403);
  assert.equal((await bride.post('/admin/api/notifications/test')).status, 403);
});

test('bad notification settings are refused with a sentence naming the field, and nothing is saved', async () => {
  const r = await admin.put('/admin/api/settings', { notify: { webhook_url: 'ftp://x', to: 'not-an-address', surprise: 1 } });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /webhook_url must be an address/);
  assert.match(r.body.error, /to must be e-mail addresses/);
  assert.match(r.body.error, /Unknown notify setting "surprise"/);
  assert.equal(JSON.parse((s.ctx.sqlite.prepare('SELECT data FROM settings').get() as { data: string }).data).notify.webhook_url, notify.webhook_url);
});

test('"Send a test" reaches every channel and says that each worked', async () => {
  const got = Promise.all([ntfy.next(), hook.next(), smtp.next()]);
  const r = await admin.post('/admin/api/notifications/test');
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.deepEqual(r.body.results.map((x: any) => [x.channel, x.ok, x.error]).sort(), [['email', true, null], ['ntfy', true, null], ['webhook', true, null]]);
  const [n, h, m] = await within(got);
  assert.equal(n.url, '/');
  const nb = JSON.parse(n.body);
  assert.equal(nb.topic, 'wedding-topic-7f3k');
  assert.equal(nb.title, 'Emma & James: Test message');
  assert.equal(nb.click, 'https://photos.example/admin/dashboard');
  assert.equal(h.url, '/hooks/T0/B0/secret-token');
  assert.equal(h.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(h.body), {
    event: 'test',
    text: 'This is a test from your wedding website: notifications reach you here.',
    count: null,
    url: 'https://photos.example/admin/dashboard',
  });
  assert.equal(m.user, 'wedding');
  assert.equal(m.from, 'site@example.com');
  assert.deepEqual(m.to, ['emma@example.com']);
  assert.match(m.raw, /Subject: Emma & James: Test message/);
  assert.match(m.raw, /Open: https:\/\/photos.example\/admin\/dashboard/);
});

test('"Send a test" with the form\'s unsaved values says which channel failed and why, and saves nothing', async () => {
  const dead = await httpReceiver();
  await dead.close(); // a port where nobody listens any more
  const r = await admin.post('/admin/api/notifications/test', {
    webhook_url: `${dead.url}/hook`,
    smtp_url: `smtp://wedding:wrong-password@127.0.0.1:${smtp.port}`,
  });
  assert.equal(r.status, 200);
  const by = Object.fromEntries(r.body.results.map((x: any) => [x.channel, x]));
  assert.equal(by.ntfy.ok, true);
  assert.equal(by.webhook.ok, false);
  assert.match(by.webhook.error, /ECONNREFUSED/);
  assert.equal(by.email.ok, false);
  assert.match(by.email.error, /535|auth/i);
  const stored = JSON.parse((s.ctx.sqlite.prepare('SELECT data FROM settings').get() as { data: string }).data).notify;
  assert.equal(stored.webhook_url, notify.webhook_url);
  // The dashboard shows the failures until the next success.
  const dash = await admin.get('/admin/api/dashboard');
  assert.deepEqual(dash.body.notify_failures.map((c: any) => c.channel).sort(), ['email', 'webhook']);
  assert.equal((await admin.post('/admin/api/notifications/test')).body.results.every((x: any) => x.ok), true);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual((await admin.get('/admin/api/dashboard')).body.notify_failures, []);
});

test('photos waiting for approval: one message at once, then at most one per 15 minutes with the count and a link to the queue', async () => {
  hook.got.length = 0;
  ntfy.got.length = 0;
  smtp.mails.length = 0;
  const first = within(hook.next());
  const firstMail = within(smtp.next());
  await uploadPhotos(1);
  const h = JSON.parse((await first).body);
  assert.deepEqual(h, { event: 'photos_waiting', text: '1 photo is waiting for your approval.', count: 1, url: 'https://photos.example/admin/photos?mode=queue' });
  assert.match((await firstMail).raw, /Subject: Emma & James: Photos waiting for approval/);

  await uploadPhotos(2);
  await new Promise((r) => setTimeout(r, 300)); // anything sent would have arrived on loopback by now
  assert.equal(hook.got.length, 1, 'held: the first went out less than 15 minutes ago');

  const second = within(hook.next());
  clock.advance(NOTIFY_EVERY_MS);
  const h2 = JSON.parse((await second).body);
  assert.equal(h2.count, 3);
  assert.equal(h2.text, '3 photos are waiting for your approval.');
  await within((async () => {
    while (ntfy.got.length < 2 || smtp.mails.length < 2) await new Promise((r) => setTimeout(r, 20));
  })());
  assert.equal(JSON.parse(ntfy.got[1].body).message, '3 photos are waiting for your approval.');
});

test('a held message is not sent when every waiting photo was approved meanwhile', async () => {
  hook.got.length = 0;
  const ids = await uploadPhotos(1);
  const all = await admin.get('/admin/api/photos?pending=true&per_page=100');
  for (const p of all.body.photos) assert.equal((await admin.post(`/admin/api/photos/${p.id}/approve`)).status, 200);
  assert.ok(ids.length === 1);
  clock.advance(NOTIFY_EVERY_MS);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(hook.got.length, 0);
});

test('with automatic approval nothing waits, so nothing is sent', async () => {
  assert.equal((await admin.put('/admin/api/settings', { moderation: 'auto' })).status, 200);
  hook.got.length = 0;
  clock.advance(NOTIFY_EVERY_MS);
  await uploadPhotos(1);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(hook.got.length, 0);
  assert.equal((await admin.put('/admin/api/settings', { moderation: 'manual' })).status, 200);
});

test('a file that could not be processed is told with its name', async () => {
  const got = within(hook.next());
  const r = await uploadFile(s.url, sample('corrupted.jpg'), 'corrupted.jpg');
  assert.equal(r.status, 201);
  assert.equal(await waitForStatus(s.url, r.body.photo_id), 'error');
  const body = JSON.parse((await got).body);
  assert.equal(body.event, 'processing_failed');
  assert.equal(body.count, 1);
  assert.equal(body.text, '"corrupted.jpg" could not be processed. It is kept; the photos page says why.');
});

test('a missing tool is told, once', async () => {
  const receiver = await httpReceiver();
  const missing = await startTestServer({ FFPROBE_PATH: '/nonexistent/ffprobe', FFMPEG_PATH: '/nonexistent/ffmpeg' });
  try {
    const a = new TestClient(missing.url);
    await a.login();
    assert.equal((await a.put('/admin/api/settings', { notify: { webhook_url: `${receiver.url}/hook` } })).status, 200);
    const got = within(receiver.next(), 30_000);
    for (const kind of ['mp4', 'mov'] as const) assert.equal((await uploadFile(missing.url, makeVideo(kind), `clip.${kind}`)).status, 201);
    const body = JSON.parse((await got).body);
    assert.equal(body.event, 'tool_missing');
    assert.match(body.text, /^ffprobe is not installed/);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.got.filter((g) => g.body.includes('tool_missing')).length, 1);
  } finally {
    await missing.close();
    await receiver.close();
  }
});

test('an upload refused for lack of space is told', async () => {
  const receiver = await httpReceiver();
  const full = await startTestServer({ STORAGE_LIMIT_GB: '0.0000001' });
  try {
    const a = new TestClient(full.url);
    await a.login();
    assert.equal((await a.put('/admin/api/settings', { notify: { webhook_url: `${receiver.url}/hook` } })).status, 200);
    const got = within(receiver.next());
    const r = await uploadFile(full.url, await tinyImage('jpeg', seed++), 'big.jpg');
    assert.equal(r.status, 507);
    const body = JSON.parse((await got).body);
    assert.equal(body.event, 'storage_full');
    assert.equal(body.count, 1);
  } finally {
    await full.close();
    await receiver.close();
  }
});
