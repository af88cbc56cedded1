import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { serverWithAdmin, TestClient, type TestServer } from '../helpers/server.js';
import { makeAudio, postMessage, probe, voiceReady, type AudioKind } from '../helpers/guestbook.js';

let s: TestServer;
let admin: TestClient;
let anna: TestClient;
before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin());
});
after(() => s.close());

const row = (id: string) => s.ctx.sqlite.prepare('SELECT * FROM guestbook WHERE id = ?').get(id) as any;
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

const SENT: { kind: AudioKind; mime: string; codec: string }[] = [
  { kind: 'webm', mime: 'audio/webm', codec: 'opus' },
  { kind: 'ogg', mime: 'audio/ogg', codec: 'opus' },
  { kind: 'm4a', mime: 'audio/mp4', codec: 'aac' },
  { kind: 'wav', mime: 'audio/wav', codec: 'pcm_s16le' },
];

for (const { kind, mime, codec } of SENT) {
  test(`a ${kind} voice note is stored as sent, and processing makes an AAC-in-MP4 copy that serves`, async () => {
    const sent = makeAudio(kind, 3);
    assert.equal(probe(sent).codec, codec, 'the test sends what it means to');
    const r = await postMessage(anna, { message: `with a ${kind}`, name: 'Anna', audio: sent, audioName: 'whatever.bin' });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.equal(r.body.entry.status, 'pending');
    const id = r.body.entry.id;
    const stored = row(id);
    assert.equal(stored.audio_type, mime, 'the type comes from the magic bytes, not the name');
    assert.equal(stored.audio_size, sent.length);
    assert.equal(stored.audio_sha256, sha(sent));
    assert.ok(Math.abs(stored.duration - 3) < 0.1, `duration ${stored.duration} from the file itself`);
    const original = path.join(s.dataDir, stored.audio_path);
    assert.ok(original.startsWith(path.join(s.dataDir, 'media', 'guestbook')), stored.audio_path);
    assert.ok(fs.readFileSync(original).equals(sent), 'kept byte for byte');

    const mine = await voiceReady(anna, id);
    assert.equal(mine.audio_status, 'complete');
    assert.equal(mine.status, 'pending');
    assert.ok(mine.audio_url);
    assert.ok(Math.abs(mine.duration - 3) < 0.1);

    // Hidden: its guest and signed-in users may play it; nobody else learns it exists.
    const own = await anna.fetch(mine.audio_url);
    assert.equal(own.status, 200);
    assert.equal(own.headers.get('content-type'), 'audio/mp4');
    assert.match(own.headers.get('cache-control') ?? '', /^private/);
    const copy = Buffer.from(await own.arrayBuffer());
    const facts = probe(copy);
    assert.equal(facts.codec, 'aac');
    assert.match(facts.format, /mp4/);
    assert.ok(Math.abs(facts.duration - 3) < 0.2, `the copy lasts ${facts.duration} s`);
    assert.equal((await new TestClient(s.url).fetch(mine.audio_url)).status, 404);
    assert.equal((await admin.fetch(mine.audio_url)).status, 200);
    const range = await anna.fetch(mine.audio_url, { headers: { range: 'bytes=0-99' } });
    assert.equal(range.status, 206, 'players seek with ranges');

    await admin.post(`/admin/api/guestbook/${id}/approve`);
    const pub = (await new TestClient(s.url).get('/api/guestbook')).body.entries.find((e: any) => e.id === id);
    assert.equal(pub.audio_url, mine.audio_url);
    assert.equal((await new TestClient(s.url).fetch(pub.audio_url)).status, 200);
  });
}

test('the form may put the message after the voice note', async () => {
  const r = await postMessage(anna, { message: 'fields last', audio: makeAudio('webm', 2), fieldsLast: true });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  assert.equal(row(r.body.entry.id).message, 'fields last');
});

test('auto moderation: a message with a voice note shows once its copy is ready', async () => {
  await admin.put('/admin/api/settings', { moderation: 'auto' });
  try {
    const r = await postMessage(anna, { message: 'auto voice', audio: makeAudio('ogg', 2) });
    assert.equal(r.body.entry.status, 'pending', 'not before the copy exists');
    const ready = await voiceReady(anna, r.body.entry.id);
    assert.equal(ready.audio_status, 'complete');
    const deadline = Date.now() + 5000;
    while (row(r.body.entry.id).is_visible !== 1 && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
    const pub = (await new TestClient(s.url).get('/api/guestbook')).body.entries.find((e: any) => e.id === r.body.entry.id);
    assert.ok(pub?.audio_url, 'visible, with its voice note');
    const acts = s.ctx.sqlite.prepare(`SELECT description FROM activity WHERE type = 'approval'`).all() as { description: string }[];
    assert.ok(acts.some((a) => a.description === 'Approved a guestbook message from a guest automatically'));
  } finally {
    await admin.put('/admin/api/settings', { moderation: 'manual' });
  }
});

test('deleting a message removes its voice note and its copy', async () => {
  const r = await postMessage(anna, { message: 'going away', audio: makeAudio('m4a', 2) });
  await voiceReady(anna, r.body.entry.id);
  const stored = row(r.body.entry.id);
  const files = [stored.audio_path, stored.web_audio_path].map((p: string) => path.join(s.dataDir, p));
  assert.ok(files.every((f) => fs.existsSync(f)));
  assert.equal((await anna.del(`/api/my/guestbook/${r.body.entry.id}`)).status, 200);
  assert.ok(files.every((f) => !fs.existsSync(f)), 'both files are gone');
  assert.equal((await admin.fetch(`/api/guestbook/${r.body.entry.id}/audio`)).status, 404);
});

test('voice notes count toward the storage in use on the dashboard', async () => {
  const rows = s.ctx.sqlite.prepare('SELECT coalesce(sum(audio_size), 0) + coalesce(sum(web_audio_size), 0) AS n FROM guestbook').get() as { n: number };
  assert.ok(rows.n > 0);
  const used = (await admin.get('/admin/api/dashboard')).body.stats.storage_used;
  assert.equal(used, rows.n, 'no photos here: the space in use is the voice notes, as sent and their copies');
});
