import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, TestClient, userClient } from '../helpers/server.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
before(async () => {
  s = await startTestServer({ COUPLE_NAMES: 'Anna & Ben', UPLOADS_ENABLED: 'false' });
  admin = new TestClient(s.url);
  await admin.login();
});
after(() => s.close());

test('settings are public and seeded from SPEC defaults and env', async () => {
  const r = await new TestClient(s.url).get('/api/settings');
  assert.equal(r.status, 200);
  const st = r.body.settings;
  assert.deepEqual(st.couple_names, ['Anna', 'Ben']);
  assert.equal(st.uploads_enabled, false);
  assert.equal(st.schedule.length, 3);
  assert.deepEqual(st.schedule.map((i: any) => i.title), ['Welcome Party', 'Ceremony & Reception', 'Goodbye Brunch']);
  assert.equal(st.schedule[0].day, 'Friday, 6 June 2025');
  assert.equal(st.schedule[0].time, '7:00-9:00 PM');
  assert.match(st.schedule[0].location, /Maryland/);
  assert.match(st.schedule[0].attire, /Cocktail/);
  assert.equal(st.schedule[1].time, '4:30-11:00 PM');
  assert.match(st.schedule[1].venue, /Manor/);
  assert.match(st.schedule[1].attendance, /invitation/);
  assert.equal(st.schedule[2].time, '10:00 AM-12:00 PM');
  assert.equal(st.schedule[2].venue, st.schedule[1].venue);
  assert.match(st.schedule[2].attire, /Casual/);
});

test('admins write settings; they persist across a restart and env does not override them', async () => {
  const r = await admin.put('/admin/api/settings', { couple_names: ['Clara', 'Dev'], uploads_enabled: true, welcome_message: 'Welcome all' });
  assert.equal(r.status, 200);
  assert.deepEqual(r.body.settings.couple_names, ['Clara', 'Dev']);
  assert.equal((await new TestClient(s.url).get('/api/settings')).body.settings.welcome_message, 'Welcome all');
  const dir = s.dataDir;
  await s.close();
  s = await startTestServer({ COUPLE_NAMES: 'Anna & Ben', UPLOADS_ENABLED: 'false' }, dir);
  admin = new TestClient(s.url);
  await admin.login();
  const after = (await new TestClient(s.url).get('/api/settings')).body.settings;
  assert.deepEqual(after.couple_names, ['Clara', 'Dev']);
  assert.equal(after.uploads_enabled, true);
});

test('settings are validated', async () => {
  const bad: [unknown, RegExp][] = [
    [{ couple_names: ['Only'] }, /two names/],
    [{ couple_names: ['', 'B'] }, /required/],
    [{ uploads_enabled: 'yes' }, /uploads_enabled/],
    [{ schedule: [] }, /1 to 10/],
    [{ schedule: [{ title: '' }] }, /title is required/],
    [{ colour: 'red' }, /Unknown setting/],
    [[1, 2], /JSON object/],
  ];
  for (const [body, msg] of bad) {
    const r = await admin.put('/admin/api/settings', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.match(r.body.error, msg);
    assert.equal(r.body.code, 'invalid_input');
  }
  const st = (await new TestClient(s.url).get('/api/settings')).body.settings;
  assert.equal(st.schedule.length, 3, 'nothing changed by a refused write');
});

test('only admins may write settings', async () => {
  const guest = await new TestClient(s.url).put('/admin/api/settings', { welcome_message: 'x' });
  assert.equal(guest.status, 401);
  assert.equal(guest.body.code, 'not_signed_in');
  for (const role of ['family', 'bride', 'groom'] as const) {
    const c = await userClient(s.url, admin, role);
    const r = await c.put('/admin/api/settings', { welcome_message: 'x' });
    assert.equal(r.status, 403, role);
    assert.equal(r.body.code, 'forbidden');
  }
});
