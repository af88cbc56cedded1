import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { serverWithAdmin, startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { guestbookFiles, makeAudio, postMessage, type Answer } from '../helpers/guestbook.js';
import { tinyImage } from '../helpers/uploads.js';

let s: TestServer;
let anna: TestClient;
before(async () => {
  ({ s, client: anna } = await serverWithAdmin());
});
after(() => s.close());

const count = () => (s.ctx.sqlite.prepare('SELECT count(*) AS n FROM guestbook').get() as { n: number }).n;

/** A refusal: its status and code, the field it names, and nothing of it kept (no row, no file). */
async function refused(send: () => Promise<Answer>, status: number, field: string | undefined, error?: RegExp): Promise<Answer> {
  const rows = count();
  const r = await send();
  assert.equal(r.status, status, JSON.stringify(r.body));
  assert.equal(r.body.success, false);
  if (field) assert.equal(r.body.field, field, `names the field: ${JSON.stringify(r.body)}`);
  if (error) assert.match(r.body.error, error);
  assert.equal(count(), rows, 'no row was stored');
  assert.deepEqual(guestbookFiles(s.dataDir), [], 'no file was kept');
  return r;
}

describe('the message and the name', () => {
  test('a missing, empty or blank message is 400 naming "message"', async () => {
    await refused(() => postMessage(anna, { name: 'Anna' }), 400, 'message', /^Please write a message\.$/);
    await refused(() => postMessage(anna, { message: '' }), 400, 'message');
    await refused(() => postMessage(anna, { message: ' \n\t ' }), 400, 'message');
  });

  test('1000 characters (not bytes) pass; 1001 are 400 naming "message"', async () => {
    const long = '💐'.repeat(1000);
    const ok = await postMessage(anna, { message: long });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    await refused(() => postMessage(anna, { message: long + 'x' }), 400, 'message', /at most 1000 characters/);
    const del = await anna.del(`/api/my/guestbook/${ok.body.entry.id}`);
    assert.equal(del.status, 200);
  });

  test('a name over 60 characters is 400 naming "name", also when it comes after a voice note', async () => {
    await refused(() => postMessage(anna, { message: 'hi', name: 'A'.repeat(61) }), 400, 'name', /at most 60 characters/);
    await refused(() => postMessage(anna, { message: 'hi', name: 'A'.repeat(61), audio: makeAudio('webm', 2), fieldsLast: true }), 400, 'name');
  });

  test('a body that is not a form is 400 with a sentence, not a crash', async () => {
    const r = await anna.post('/api/guestbook', { message: 'as JSON' });
    assert.equal(r.status, 400);
    assert.match(r.body.error, /multipart\/form-data/);
    assert.equal(count(), 0);
  });
});

describe('the voice note', () => {
  test('over 10 MB is 413 naming "audio": refused by its declared size, and when streamed without one', async () => {
    const big = Buffer.concat([makeAudio('wav', 1), Buffer.alloc(10 * 1024 * 1024)]);
    await refused(() => postMessage(anna, { message: 'loud', audio: big }), 413, 'audio', /at most 10 MB/);
    // No Content-Length: the stream itself is cut off at the limit.
    const form = new FormData();
    form.append('message', 'loud');
    form.append('audio', new Blob([new Uint8Array(big)]), 'note.wav');
    const req = new Request('http://x', { method: 'POST', body: form });
    const body = req.body!;
    await refused(
      async () => {
        const res = await anna.fetch('/api/guestbook', { method: 'POST', body, headers: { 'content-type': req.headers.get('content-type')! }, duplex: 'half' } as RequestInit);
        return { status: res.status, body: await res.json(), headers: res.headers };
      },
      413,
      'audio',
    );
  });

  test('anything but WebM/Ogg/M4A/WAV by its magic bytes is 415 naming "audio", whatever its name', async () => {
    const jpeg = await tinyImage('jpeg', 1);
    await refused(() => postMessage(anna, { message: 'pic', audio: jpeg, audioName: 'note.webm' }), 415, 'audio', /not supported/);
    await refused(() => postMessage(anna, { message: 'text', audio: Buffer.from('just some words, no sound at all'), audioName: 'note.m4a' }), 415, 'audio');
  });

  test('a video is 415 naming "audio", in MP4 and in WebM', async () => {
    await refused(() => postMessage(anna, { message: 'clip', audio: makeAudio('mp4-video', 1) }), 415, 'audio', /video, not a voice note/);
    await refused(() => postMessage(anna, { message: 'clip', audio: makeAudio('webm-video', 1) }), 415, 'audio', /video, not a voice note/);
  });

  test('a broken file with the right magic bytes is 400 naming "audio"', async () => {
    const ogg = makeAudio('ogg', 2);
    const broken = Buffer.concat([ogg.subarray(0, 64), Buffer.alloc(4000, 7)]);
    await refused(() => postMessage(anna, { message: 'crackle', audio: broken }), 400, 'audio');
    await refused(() => postMessage(anna, { message: 'empty', audio: Buffer.alloc(0) }), 400, 'audio', /empty/);
  });

  test('over 2 minutes by its own length is 400 naming "audio" (WebM and WAV)', async () => {
    await refused(() => postMessage(anna, { message: 'speech', audio: makeAudio('webm', 130) }), 400, 'audio', /at most 2 minutes/);
    await refused(() => postMessage(anna, { message: 'speech', audio: makeAudio('wav', 125, 8000) }), 400, 'audio', /at most 2 minutes/);
  });
});

describe('the hourly limit', () => {
  test('the 11th message within an hour is 429 with Retry-After; another guest is not held back', async () => {
    const cara = new TestClient(s.url);
    for (let i = 0; i < 10; i++) assert.equal((await postMessage(cara, { message: `note ${i}` })).status, 201);
    const r = await refused(() => postMessage(cara, { message: 'one more', audio: makeAudio('webm', 2) }), 429, undefined, /wait a little/);
    assert.equal(r.body.code, 'rate_limited');
    const wait = Number(r.headers.get('retry-after'));
    assert.ok(wait > 3500 && wait <= 3600, `Retry-After ${wait} s: until the first of the hour's messages is an hour old`);
    assert.equal((await postMessage(new TestClient(s.url), { message: 'someone else' })).status, 201);
  });

  test('15 messages sent at once by one guest: exactly 10 are stored', async () => {
    const dan = new TestClient(s.url);
    // One request first, so the parallel ones share the guest's cookie.
    assert.equal((await postMessage(dan, { message: 'first' })).status, 201);
    const answers = await Promise.all(Array.from({ length: 14 }, (_, i) => postMessage(dan, { message: `at once ${i}` })));
    assert.equal(answers.filter((a) => a.status === 201).length, 9);
    assert.ok(answers.filter((a) => a.status !== 201).every((a) => a.status === 429 && a.headers.get('retry-after')));
    assert.equal((await dan.get('/api/my/guestbook?limit=100')).body.pagination.total, 10);
  });
});

test('a message that would pass the storage limit is 507 and nothing of it is kept', async () => {
  const tiny = await startTestServer({ STORAGE_LIMIT_GB: '0.0001' });
  try {
    const c = new TestClient(tiny.url);
    const r = await postMessage(c, { message: 'big voice', audio: Buffer.concat([makeAudio('wav', 1), Buffer.alloc(200_000)]) });
    assert.equal(r.status, 507);
    assert.equal(r.body.code, 'storage_full');
    assert.deepEqual(guestbookFiles(tiny.dataDir), []);
  } finally {
    await tiny.close();
  }
});
