// The couple's controls as settings, over real HTTP: defaults, saving each one, refusing bad input
// without saving anything, and the wall's pause reaching an open event stream.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { watchEvents } from '../helpers/sse-text.js';

let s: TestServer;
let admin: TestClient;

before(async () => ({ s, admin } = await serverWithAdmin()));
after(() => s.close());

const settingsNow = async () => (await new TestClient(s.url).get('/api/settings')).body.settings;

/** The default schedule with windows on its first two items (New York time). */
async function timedSchedule(first: [string, string] | [null, null], second: [string, string] | [null, null]) {
  const { schedule } = await settingsNow();
  return schedule.map((item: any, i: number) =>
    i === 0 ? { ...item, starts_at: first[0], ends_at: first[1] } : i === 1 ? { ...item, starts_at: second[0], ends_at: second[1] } : item,
  );
}

test('a fresh install: manual moderation, an open gallery, a running wall, the server time zone', async () => {
  const st = await settingsNow();
  assert.equal(st.moderation, 'manual');
  assert.equal(st.gallery_opens_at, null);
  assert.equal(st.wall_paused, false);
  assert.equal(st.time_zone, Intl.DateTimeFormat().resolvedOptions().timeZone);
  // The home page's day and time texts are still there.
  assert.equal(st.schedule[0].day, 'Friday, 6 June 2025');
  assert.equal(st.schedule[0].time, '7:00-9:00 PM');
});

test('each control is saved by PUT and shown by GET /api/settings', async () => {
  const put = await admin.put('/admin/api/settings', {
    moderation: 'auto',
    gallery_opens_at: '2026-06-07T20:00:00+02:00',
    wall_paused: true,
    time_zone: 'America/New_York',
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const st = await settingsNow();
  assert.equal(st.moderation, 'auto');
  assert.equal(st.gallery_opens_at, '2026-06-07T20:00:00+02:00');
  assert.equal(st.wall_paused, true);
  assert.equal(st.time_zone, 'America/New_York');

  const schedule = await timedSchedule(['2025-06-06T19:00:00-04:00', '2025-06-06T21:00:00-04:00'], ['2025-06-07T16:30:00-04:00', '2025-06-07T23:00:00-04:00']);
  assert.equal((await admin.put('/admin/api/settings', { schedule })).status, 200);
  const saved = (await settingsNow()).schedule;
  assert.equal(saved[0].starts_at, '2025-06-06T19:00:00-04:00');
  assert.equal(saved[1].ends_at, '2025-06-07T23:00:00-04:00');
  assert.equal(saved[2].starts_at, null);
  assert.equal(saved[0].day, 'Friday, 6 June 2025');

  // Back to an open gallery and a running wall; the other tests start from here.
  const reset = await admin.put('/admin/api/settings', { moderation: 'manual', gallery_opens_at: null, wall_paused: false });
  assert.equal(reset.status, 200);
  assert.equal((await settingsNow()).gallery_opens_at, null);
});

test('bad input is 400 invalid_input with a sentence naming the field, and nothing is saved', async () => {
  const before = JSON.stringify(await settingsNow());
  const cases: [unknown, RegExp][] = [
    [{ moderation: 'sometimes' }, /moderation/],
    [{ moderation: 'auto', gallery_opens_at: '7 June at 8' }, /gallery_opens_at/],
    [{ gallery_opens_at: '2026-02-30T20:00:00Z' }, /gallery_opens_at/],
    [{ gallery_opens_at: '2026-06-07T20:00:00' }, /gallery_opens_at/],
    [{ wall_paused: 'yes' }, /wall_paused/],
    [{ time_zone: 'Mars/Olympus_Mons' }, /time_zone/],
    [{ schedule: await timedSchedule(['2025-06-06T19:00:00-04:00', '2025-06-06T18:00:00-04:00'], [null, null]) }, /Schedule item 1 ends_at must be after its starts_at/],
    [{ schedule: await timedSchedule(['2025-06-06T25:00:00-04:00', '2025-06-06T26:00:00-04:00'], [null, null]) }, /Schedule item 1 starts_at/],
    [{ schedule: await timedSchedule(['2025-06-06T19:00:00-04:00', '2025-06-07T18:00:00-04:00'], ['2025-06-07T16:30:00-04:00', '2025-06-07T23:00:00-04:00']) }, /Schedule items 1 and 2 overlap.*starts_at/],
  ];
  for (const [body, field] of cases) {
    const r = await admin.put('/admin/api/settings', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.success, false);
    assert.equal(r.body.code, 'invalid_input');
    assert.match(r.body.error, field);
    assert.equal(JSON.stringify(await settingsNow()), before, `nothing saved for ${JSON.stringify(body)}`);
  }
  // One end without the other is not a window.
  const half = await timedSchedule(['2025-06-06T19:00:00-04:00', '2025-06-06T21:00:00-04:00'], [null, null]);
  half[0].ends_at = null;
  const r = await admin.put('/admin/api/settings', { schedule: half });
  assert.equal(r.status, 400);
  assert.match(r.body.error, /Schedule item 1 needs both starts_at and ends_at/);
});

test('moments may touch: one ending as the next starts is not an overlap', async () => {
  const schedule = await timedSchedule(['2025-06-07T14:00:00-04:00', '2025-06-07T16:30:00-04:00'], ['2025-06-07T16:30:00-04:00', '2025-06-07T23:00:00-04:00']);
  const r = await admin.put('/admin/api/settings', { schedule });
  assert.equal(r.status, 200, JSON.stringify(r.body));
});

test('only admins change the controls', async () => {
  const family = await userClient(s.url, admin, 'family');
  const r = await family.put('/admin/api/settings', { wall_paused: true });
  assert.equal(r.status, 403);
  assert.equal((await settingsNow()).wall_paused, false);
});

test('pausing and resuming reaches an open wall stream as wall-state events', async () => {
  const stream = await watchEvents(s.url);
  try {
    await stream.waitFor('ready');
    assert.equal((await admin.put('/admin/api/settings', { wall_paused: true })).status, 200);
    assert.deepEqual(await stream.waitFor('wall-state'), { paused: true, blank: false, layout: 'single' });
    // Saving other settings does not repeat the state.
    await admin.put('/admin/api/settings', { welcome_message: 'Hello' });
    assert.equal((await admin.put('/admin/api/settings', { wall_paused: false })).status, 200);
    assert.deepEqual(await stream.waitFor('wall-state'), { paused: false, blank: false, layout: 'single' });
    assert.equal(stream.text().match(/event: wall-state/g)?.length, 2);
  } finally {
    await stream.close();
  }
});
