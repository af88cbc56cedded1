import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serverWithAdmin, TestClient, userClient, type TestServer } from '../helpers/server.js';
import { watchEvents } from '../helpers/sse-text.js';
import { tinyImage } from '../helpers/uploads.js';
import { processed, type Answer } from './guests-helpers.js';

let s: TestServer;
let admin: TestClient;
let guest: TestClient;
before(async () => {
  ({ s, admin, client: guest } = await serverWithAdmin());
});
after(() => s.close());

const photoRow = (id: string) => s.ctx.sqlite.prepare('SELECT challenge_id FROM photos WHERE id = ?').get(id) as { challenge_id: string | null } | undefined;
const photoCount = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM photos').get() as { n: number }).n;

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) };
}

async function upload(data: Buffer, challenge?: string): Promise<Answer> {
  const form = new FormData();
  form.append('session_id', 's');
  if (challenge !== undefined) form.append('challenge_id', challenge);
  form.append('file', new Blob([new Uint8Array(data)]), 'p.jpg');
  return answer(await guest.fetch('/api/upload', { method: 'POST', body: form }));
}

/** A chunked upload; `challenges[i]` is the challenge_id sent with chunk i (none when undefined). */
async function chunked(data: Buffer, challenges: (string | undefined)[], uploadId = `c${Math.random().toString(36).slice(2)}`): Promise<Answer[]> {
  const size = Math.ceil(data.length / challenges.length);
  const out: Answer[] = [];
  for (let i = 0; i < challenges.length; i++) {
    const [start, end] = [i * size, Math.min(data.length, (i + 1) * size)];
    const form = new FormData();
    const fields = { session_id: 's', upload_id: uploadId, filename: 'c.jpg', total_size: String(data.length), chunk_start: String(start), chunk_end: String(end), is_last_chunk: String(end === data.length) };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    if (challenges[i] !== undefined) form.append('challenge_id', challenges[i]!);
    form.append('file', new Blob([new Uint8Array(data.subarray(start, end))]), 'blob');
    out.push(await answer(await guest.fetch('/api/upload-chunk', { method: 'POST', body: form })));
  }
  return out;
}

describe('the challenges setting', () => {
  test('admins set up to 30 challenges; ids are kept when given and made when not; GET /api/settings shows them', async () => {
    const r = await admin.put('/admin/api/settings', {
      challenges: [
        { id: 'oldest', title: 'A photo with the oldest guest', description: 'Ask them for a story too.' },
        { title: '  The first dance  ' },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const [a, b] = r.body.settings.challenges;
    assert.deepEqual(a, { id: 'oldest', title: 'A photo with the oldest guest', description: 'Ask them for a story too.' });
    assert.match(b.id, /^[A-Za-z0-9_-]{1,40}$/);
    assert.deepEqual([b.title, b.description], ['The first dance', '']);
    assert.deepEqual((await new TestClient(s.url).get('/api/settings')).body.settings.challenges, [a, b]);
    await admin.put('/admin/api/settings', { challenges: [a, { ...b, id: 'dance' }] });
  });

  test('31 challenges, a missing title, a bad or repeated id: 400 with every problem named, nothing changed', async () => {
    const before = (await admin.get('/admin/api/settings')).body.settings.challenges;
    const many = Array.from({ length: 31 }, (_, i) => ({ title: `Challenge ${i}` }));
    assert.match((await admin.put('/admin/api/settings', { challenges: many })).body.error, /at most 30 photo challenges/);
    const bad = await admin.put('/admin/api/settings', { challenges: [{ title: '' }, { id: 'no spaces!', title: 'x' }, { id: 'a', title: 'y' }, { id: 'a', title: 'z' }] });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /challenges\[1\]\.title is required/);
    assert.match(bad.body.error, /challenges\[2\]\.id must be/);
    assert.match(bad.body.error, /challenges\[4\]\.id is the same as another challenge/);
    assert.equal((await admin.put('/admin/api/settings', { challenges: 'oldest' })).status, 400);
    const family = await userClient(s.url, admin, 'family');
    assert.equal((await family.put('/admin/api/settings', { challenges: [] })).status, 403);
    assert.deepEqual((await admin.get('/admin/api/settings')).body.settings.challenges, before);
  });
});

describe('photos answering a challenge', () => {
  const ids: Record<string, string> = {};

  test('challenge_id on /api/upload is stored; an unknown one is 400 naming the field and nothing is kept', async () => {
    const r = await upload(await tinyImage('jpeg', 1), 'oldest');
    assert.equal(r.status, 201, JSON.stringify(r.body));
    ids.oldest = r.body.photo_id;
    assert.equal(photoRow(ids.oldest)?.challenge_id, 'oldest');
    const plain = await upload(await tinyImage('jpeg', 2));
    ids.plain = plain.body.photo_id;
    assert.equal(photoRow(ids.plain)?.challenge_id, null);
    const n = photoCount();
    const bad = await upload(await tinyImage('jpeg', 3), 'no-such-challenge');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, 'challenge_id');
    assert.match(bad.body.error, /challenge/);
    assert.equal(photoCount(), n);
  });

  test('on chunks the last chunk\'s challenge_id counts; an unknown one is refused before the chunk is written', async () => {
    const data = await tinyImage('jpeg', 4, 400, 300);
    const answers = await chunked(data, ['oldest', undefined, 'dance']);
    assert.equal(answers.at(-1)!.status, 201, JSON.stringify(answers));
    ids.dance = answers.at(-1)!.body.photo_id;
    assert.equal(photoRow(ids.dance)?.challenge_id, 'dance');
    const n = photoCount();
    const refused = await chunked(await tinyImage('jpeg', 5, 400, 300), ['dance', 'nope'], 'refused-upload');
    assert.equal(refused[0].status, 200);
    assert.equal(refused[1].status, 400);
    assert.equal(refused[1].body.field, 'challenge_id');
    assert.equal(photoCount(), n);
    const offset = await guest.get('/api/upload-chunk/offset?upload_id=refused-upload');
    assert.equal(offset.body.received_bytes, refused[0].body.received_bytes, 'the refused chunk wrote nothing');
  });

  test('gallery items carry the challenge\'s title; ?challenge=ID lists only its photos; the wall is told the title', async () => {
    const wall = await watchEvents(s.url);
    try {
      await wall.waitFor('ready');
      for (const id of Object.values(ids)) {
        await processed(guest, id);
        await admin.post(`/admin/api/photos/${id}/approve`);
      }
      const events = [await wall.waitFor('photo-visible'), await wall.waitFor('photo-visible'), await wall.waitFor('photo-visible')];
      assert.equal(events.find((e) => e.id === ids.oldest).challenge, 'A photo with the oldest guest');
      assert.equal(events.find((e) => e.id === ids.plain).challenge, null);
    } finally {
      await wall.close();
    }
    const all = (await guest.get('/api/photos')).body.photos;
    assert.equal(all.find((p: any) => p.id === ids.dance).challenge, 'The first dance');
    assert.equal(all.find((p: any) => p.id === ids.plain).challenge, null);
    const filtered = (await guest.get('/api/photos?challenge=oldest')).body;
    assert.deepEqual(filtered.photos.map((p: any) => p.id), [ids.oldest]);
    assert.deepEqual(filtered.pagination, { total: 1, limit: 20, offset: 0, has_more: false });
    assert.deepEqual((await guest.get('/api/photos?challenge=unknown')).body.photos, []);
    assert.equal((await guest.get('/api/photos?challenge=oldest&moment=Ceremony')).status, 400);
  });

  test('/api/stats counts each challenge\'s gallery photos; the dashboard counts all and visible', async () => {
    await admin.post(`/admin/api/photos/${ids.dance}/hide`);
    const stats = (await guest.get('/api/stats')).body.stats.challenges;
    assert.deepEqual(
      stats.map((c: any) => [c.id, c.title, c.count]),
      [
        ['oldest', 'A photo with the oldest guest', 1],
        ['dance', 'The first dance', 0],
      ],
    );
    assert.equal(stats[0].description, 'Ask them for a story too.');
    const dash = (await admin.get('/admin/api/dashboard')).body.challenge_counts;
    assert.deepEqual(dash, [
      { id: 'oldest', title: 'A photo with the oldest guest', total: 1, visible: 1 },
      { id: 'dance', title: 'The first dance', total: 1, visible: 0 },
    ]);
  });

  test('a reworded title follows its photos; a removed challenge leaves them without one', async () => {
    const current = (await admin.get('/admin/api/settings')).body.settings.challenges;
    await admin.put('/admin/api/settings', { challenges: [{ ...current[0], title: 'Our oldest guest' }] });
    const photos = (await guest.get('/api/photos')).body.photos;
    assert.equal(photos.find((p: any) => p.id === ids.oldest).challenge, 'Our oldest guest');
    await admin.put('/admin/api/settings', { challenges: [] });
    assert.equal((await guest.get('/api/photos')).body.photos.find((p: any) => p.id === ids.oldest).challenge, null);
    assert.deepEqual((await guest.get('/api/stats')).body.stats.challenges, []);
  });
});
