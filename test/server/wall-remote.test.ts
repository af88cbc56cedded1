// The couple's remote and the walls' heartbeat: PUT /admin/api/wall, commands and announcements
// over the event stream, GET /admin/api/walls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { WallRegistry } from '../../server/wall/walls.js';
import { startTestServer, TestClient, userClient, adminClient } from '../helpers/server.js';
import { watchEvents } from '../helpers/sse-text.js';

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
let family: TestClient;
before(async () => {
  s = await startTestServer();
  admin = await adminClient(s.url);
  family = await userClient(s.url, admin, 'family');
});
after(() => s.close());

/** A photo row a guest can see, processed, with a display copy. */
function visiblePhoto(id: string, visible = true) {
  s.writable()
    .prepare(
      `INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp, is_visible, status, display_path) VALUES (?, ?, ?, 'image/jpeg', 1, ?, ?, ?, 'complete', ?)`,
    )
    .run(id, `${id}.jpg`, `media/originals/${id}.jpg`, `sha-${id}`, new Date().toISOString(), visible ? 1 : 0, `media/derived/${id}.webp`);
}

test('family pauses, draws the curtain and changes the layout: every open wall hears it within 1 s, and GET /api/settings shows all three', async () => {
  const walls = await Promise.all([watchEvents(s.url), watchEvents(s.url)]);
  try {
    await Promise.all(walls.map((w) => w.waitFor('ready')));
    const t0 = Date.now();
    const r = await family.put('/admin/api/wall', { paused: true, blank: true, layout: 'mosaic' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.wall, { paused: true, blank: true, layout: 'mosaic' });
    for (const w of walls) assert.deepEqual(await w.waitFor('wall-state', 1000), { paused: true, blank: true, layout: 'mosaic' });
    assert.ok(Date.now() - t0 < 1000);
    const pub = (await new TestClient(s.url).get('/api/settings')).body.settings;
    assert.deepEqual([pub.wall_paused, pub.wall_blank, pub.wall_layout], [true, true, 'mosaic']);
    // Only what is given changes; the curtain opens and the wall resumes where it was.
    const back = await family.put('/admin/api/wall', { blank: false });
    assert.deepEqual(back.body.wall, { paused: true, blank: false, layout: 'mosaic' });
    for (const w of walls) assert.deepEqual(await w.waitFor('wall-state', 1000), { paused: true, blank: false, layout: 'mosaic' });
    await family.put('/admin/api/wall', { paused: false, layout: 'single' });
  } finally {
    await Promise.all(walls.map((w) => w.close()));
  }
});

test('bad wall controls are 400 with a sentence naming the problem; nobody signed out may steer the wall', async () => {
  for (const body of [{ layout: 'grid' }, { paused: 'yes' }, { blank: 1 }, { volume: 3 }, [1]]) {
    const r = await family.put('/admin/api/wall', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal(r.body.success, false);
    assert.ok(r.body.error.length > 10, r.body.error);
  }
  assert.match((await family.put('/admin/api/wall', { layout: 'grid' })).body.error, /single.*mosaic.*magazine.*cycle/);
  const guest = new TestClient(s.url);
  assert.equal((await guest.put('/admin/api/wall', { paused: true })).status, 401);
  assert.equal((await guest.post('/admin/api/wall/command', { command: 'next' })).status, 401);
  assert.equal((await guest.post('/admin/api/wall/announce', { text: 'Hi', seconds: 10 })).status, 401);
  assert.equal((await guest.get('/admin/api/walls')).status, 401);
  // The settings' own check holds for the same values.
  assert.equal((await admin.put('/admin/api/settings', { wall_layout: 'grid' })).status, 400);
  assert.equal((await admin.put('/admin/api/settings', { wall_blank: 'no' })).status, 400);
});

test('next, previous, show and an announcement reach every open wall within 1 s, also while the database is busy writing; a wall that reconnects later never replays them', async () => {
  visiblePhoto('wall_show-1');
  visiblePhoto('wall-hidden-1', false);
  const walls = await Promise.all([watchEvents(s.url), watchEvents(s.url)]);
  const db = s.writable();
  let readyId = 0;
  try {
    readyId = (await Promise.all(walls.map((w) => w.waitFor('ready'))))[0].last_event_id;
    const sent: [string, unknown, string, unknown][] = [
      ['/admin/api/wall/command', { command: 'next' }, 'wall-command', { command: 'next' }],
      ['/admin/api/wall/command', { command: 'previous' }, 'wall-command', { command: 'previous' }],
      ['/admin/api/wall/command', { command: 'show', photo_id: 'wall_show-1' }, 'wall-command', { command: 'show', photo_id: 'wall_show-1' }],
      ['/admin/api/wall/announce', { text: '  Cake in 5 minutes!\n', seconds: 20 }, 'wall-announce', { text: 'Cake in 5 minutes!', seconds: 20 }],
    ];
    for (const busy of [false, true]) {
      // Busy: another connection holds the database's write lock, as an upload rush's writes do
      // for seconds at a time; the commands do not wait for it.
      if (busy) db.exec('BEGIN IMMEDIATE');
      try {
        for (const [path, body, type, data] of sent) {
          const t0 = Date.now();
          const r = await family.post(path, body);
          assert.equal(r.status, 200, JSON.stringify(r.body));
          for (const w of walls) assert.deepEqual(await w.waitFor(type, 1000), data);
          assert.ok(Date.now() - t0 < 1000, `${type} took ${Date.now() - t0} ms${busy ? ' with the database busy' : ''}`);
        }
      } finally {
        if (busy) db.exec('ROLLBACK');
      }
    }
    // They carry no id: a wall's last event id stays the last stored event's.
    assert.doesNotMatch(walls[0].text(), /id: \d+\nevent: wall-(command|announce)/);
  } finally {
    await Promise.all(walls.map((w) => w.close()));
  }
  const kept = db.prepare(`SELECT count(*) AS n FROM events WHERE type IN ('wall-command', 'wall-announce')`).get() as { n: number };
  assert.equal(kept.n, 0, 'nothing stored to replay');
  // Reconnecting from before the commands: nothing of them comes back.
  const ac = new AbortController();
  const res = await fetch(`${s.url}/api/events`, { headers: { 'Last-Event-ID': String(readyId) }, signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!/event: ready/.test(text)) text += (await reader.read()).value ?? '';
  ac.abort();
  assert.doesNotMatch(text, /wall-command|wall-announce/);
  assert.match(text, /"resync":false/);
});

test('bad commands and announcements are 400; a photo guests cannot see is 404', async () => {
  const bad: [string, unknown][] = [
    ['/admin/api/wall/command', { command: 'jump' }],
    ['/admin/api/wall/command', {}],
    ['/admin/api/wall/command', { command: 'show' }],
    ['/admin/api/wall/command', { command: 'show', photo_id: '../etc' }],
    ['/admin/api/wall/command', 'next'],
    ['/admin/api/wall/announce', { text: '', seconds: 10 }],
    ['/admin/api/wall/announce', { text: '   ', seconds: 10 }],
    ['/admin/api/wall/announce', { text: 'x'.repeat(141), seconds: 10 }],
    ['/admin/api/wall/announce', { text: 'Hello', seconds: 4 }],
    ['/admin/api/wall/announce', { text: 'Hello', seconds: 61 }],
    ['/admin/api/wall/announce', { text: 'Hello', seconds: 7.5 }],
    ['/admin/api/wall/announce', { text: 42, seconds: 10 }],
  ];
  for (const [path, body] of bad) {
    const r = await family.post(path, body);
    assert.equal(r.status, 400, `${path} ${JSON.stringify(body)}: ${r.status}`);
    assert.equal(r.body.success, false);
  }
  const de = await family.json('POST', '/admin/api/wall/announce', { text: 'x'.repeat(141), seconds: 10 }, { 'accept-language': 'de' });
  assert.match(de.body.error, /Durchsage.*140/);
  assert.equal((await family.post('/admin/api/wall/announce', { text: 'x'.repeat(140), seconds: 60 })).status, 200);
  assert.equal((await family.post('/admin/api/wall/command', { command: 'show', photo_id: 'wall-hidden-1' })).status, 404);
  assert.equal((await family.post('/admin/api/wall/command', { command: 'show', photo_id: 'no-such-photo' })).status, 404);
});

test('two walls report in and are listed with what they show; a bad report is 400', async () => {
  const wall = new TestClient(s.url);
  const a = { id: 'wall-aaaaaaaa', showing: 'p1', layout: 'mosaic', blank: false, paused: false };
  const b = { id: 'wall-bbbbbbbb', showing: null, layout: 'single', blank: true, paused: false };
  for (const beat of [a, b]) assert.equal((await wall.post('/api/wall/heartbeat', beat)).status, 204);
  const r = await family.get('/admin/api/walls');
  assert.equal(r.status, 200);
  assert.equal(r.body.connected, 2);
  const listed = r.body.walls.map(({ last_seen, ...w }: { last_seen: string }) => {
    assert.ok(Date.now() - Date.parse(last_seen) < 5000);
    return w;
  });
  assert.deepEqual(listed, [
    { ...b, lost: false },
    { ...a, lost: false },
  ]);
  for (const bad of [{ ...a, id: 'x' }, { ...a, layout: 'grid' }, { ...a, blank: 'no' }, { ...a, showing: 5 }, {}]) {
    assert.equal((await wall.post('/api/wall/heartbeat', bad)).status, 400, JSON.stringify(bad));
  }
});

test('a wall not heard from for 60 s is lost, and after 2 minutes it leaves the list', () => {
  let now = 1_000_000;
  const reg = new WallRegistry(() => now);
  reg.report({ id: 'wall-one-0001', showing: 'a', layout: 'single', blank: false, paused: false });
  reg.report({ id: 'wall-two-0002', showing: 'b', layout: 'cycle', blank: false, paused: true });
  now += 45_000;
  reg.report({ id: 'wall-two-0002', showing: 'c', layout: 'cycle', blank: false, paused: true });
  now += 16_000;
  assert.deepEqual(
    reg.list().map((w) => [w.id, w.showing, w.lost]),
    [
      ['wall-two-0002', 'c', false],
      ['wall-one-0001', 'a', true],
    ],
  );
  now += 60_000;
  assert.deepEqual(
    reg.list().map((w) => [w.id, w.lost]),
    [['wall-two-0002', true]],
  );
  // A flood of made-up walls cannot grow the list without end.
  for (let i = 0; i < 500; i++) reg.report({ id: `flood-${String(i).padStart(6, '0')}`, showing: null, layout: 'single', blank: false, paused: false });
  assert.equal(reg.list().length, 50);
});
