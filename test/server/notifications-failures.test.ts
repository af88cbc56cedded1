import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RETRY_AFTER_MS } from '../../server/notifications/outbox.js';
import { ManualClock } from '../helpers/manual-clock.js';
import { httpReceiver, silentReceiver } from '../helpers/receivers.js';
import { startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { tinyImage, uploadFile, waitForStatus } from '../helpers/uploads.js';

const SEND_TIMEOUT_MS = 10_000;
let s: TestServer;
let admin: TestClient;
let clock: ManualClock;
let silent: Awaited<ReturnType<typeof silentReceiver>>;
let failing: Awaited<ReturnType<typeof httpReceiver>>;

before(async () => {
  [silent, failing] = await Promise.all([silentReceiver(), httpReceiver(500)]);
  clock = new ManualClock();
  s = await startTestServer({}, undefined, { clock, notifySendTimeoutMs: SEND_TIMEOUT_MS });
  admin = new TestClient(s.url);
  await admin.login();
});
after(async () => {
  await s.close();
  await Promise.all([silent.close(), failing.close()]);
});

const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

test('a receiver that never answers holds up no upload, no dashboard and no photo list', async () => {
  assert.equal((await admin.put('/admin/api/settings', { notify: { webhook_url: `${silent.url}/hook`, ntfy_url: `${silent.url}/topic` } })).status, 200);
  const first = await uploadFile(s.url, await tinyImage('jpeg', 1), 'first.jpg');
  assert.equal(await waitForStatus(s.url, first.body.photo_id), 'complete');
  await until('both channels to be held by the silent receiver', () => silent.open() >= 2);

  // While both messages hang, everything else answers; each answer arrives while they still hang.
  for (let i = 2; i < 5; i++) {
    const started = Date.now();
    const r = await uploadFile(s.url, await tinyImage('jpeg', i), `photo-${i}.jpg`);
    assert.equal(r.status, 201);
    assert.ok(silent.open() >= 1, `upload ${i} answered while a notification still hung`);
    assert.ok(Date.now() - started < SEND_TIMEOUT_MS);
  }
  for (const p of ['/admin/api/dashboard', '/admin/api/photos?pending=true', '/api/photos', '/admin/api/settings']) {
    const r = await admin.get(p);
    assert.equal(r.status, 200, p);
    assert.ok(silent.open() >= 1, `${p} answered while a notification still hung`);
  }
  const dash = await admin.get('/admin/api/dashboard');
  assert.deepEqual(dash.body.notify_failures, [], 'not failed yet: still waiting for an answer');

  // After the time limit the try counts as failed, and the dashboard says so.
  await until('the tries to time out', async () => (await admin.get('/admin/api/dashboard')).body.notify_failures.length === 2, SEND_TIMEOUT_MS + 20_000);
  const failures = (await admin.get('/admin/api/dashboard')).body.notify_failures;
  for (const f of failures) {
    assert.equal(f.ok, false);
    assert.equal(f.last_error, `no answer within ${SEND_TIMEOUT_MS / 1000} s`);
    assert.equal(f.retrying, 1);
  }
});

/** Waits until the webhook's last failure is the one at the clock's present time. */
const failureTakenIn = () =>
  until('the failure to be taken in', async () => {
    const state = (await admin.get('/admin/api/notifications')).body.channels.find((c: any) => c.channel === 'webhook');
    return state?.last_error_at === new Date(clock.now()).toISOString();
  });

test('failures are retried with back-off, shown on the dashboard until a try succeeds', async () => {
  assert.equal((await admin.put('/admin/api/settings', { notify: { webhook_url: `${failing.url}/hook`, ntfy_url: null } })).status, 200);
  const tries = () => failing.got.filter((g) => g.body.includes('tool_missing')).length;
  s.services.notifications.notifier.toolMissing('ffmpeg');
  await until('the first try', () => tries() === 1);
  await until('the dashboard to show the failure', async () => {
    const f = (await admin.get('/admin/api/dashboard')).body.notify_failures;
    // The messages of the test before (to the silent receiver) are retried here as well.
    return f.length === 1 && f[0].channel === 'webhook' && f[0].last_error === 'answered 500 Internal Server Error' && f[0].retrying >= 1;
  });

  clock.advance(RETRY_AFTER_MS[0] - 1000);
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(tries(), 1, 'not before its back-off');
  clock.advance(1000);
  await until('the second try', () => tries() === 2);
  // The clock moves on only once the failure is taken in (its next try is then set from it).
  await failureTakenIn();
  clock.advance(RETRY_AFTER_MS[1]);
  await until('the third try', () => tries() === 3);
  await failureTakenIn();

  failing.setStatus(200);
  clock.advance(RETRY_AFTER_MS[2]);
  await until('the fourth try', () => tries() === 4);
  await until('the dashboard to clear', async () => (await admin.get('/admin/api/dashboard')).body.notify_failures.length === 0);
  const state = (await admin.get('/admin/api/notifications')).body.channels;
  assert.equal(state[0].ok, true);
  assert.equal(state[0].retrying, 0);
  assert.ok(state[0].last_sent_at);
  assert.deepEqual(JSON.parse(failing.got.at(-1)!.body), {
    event: 'tool_missing',
    text: 'ffmpeg is not installed, so some files cannot be prepared. They wait until it is installed and the site restarted.',
    count: null,
    url: `${s.url}/admin/dashboard`,
  });
});
