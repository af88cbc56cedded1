import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startTestServer, tempDir, TestClient } from '../helpers/server.js';
import { guestbookFiles, makeAudio, postMessage, voiceReady } from '../helpers/guestbook.js';

test('without ffprobe a voice note is 503 with Retry-After and nothing is kept; a message without one still goes in', async () => {
  const s = await startTestServer({ FFPROBE_PATH: '/nonexistent/ffprobe' });
  try {
    const c = new TestClient(s.url);
    const r = await postMessage(c, { message: 'with a voice', audio: makeAudio('webm', 2) });
    assert.equal(r.status, 503, JSON.stringify(r.body));
    assert.equal(r.body.code, 'unavailable');
    assert.ok(Number(r.headers.get('retry-after')) > 0);
    assert.deepEqual(guestbookFiles(s.dataDir), []);
    assert.equal((s.ctx.sqlite.prepare('SELECT count(*) AS n FROM guestbook').get() as { n: number }).n, 0);
    assert.equal((await postMessage(c, { message: 'just words' })).status, 201);
  } finally {
    await s.close();
  }
});

test('a copy that cannot be made is recorded on the message, which under auto moderation stays hidden', async () => {
  const broken = path.join(tempDir('wedding-tools-'), 'ffmpeg');
  fs.writeFileSync(broken, '#!/bin/sh\necho "this encoder is broken" >&2\nexit 1\n', { mode: 0o755 });
  const s = await startTestServer({ FFMPEG_PATH: broken, FFPROBE_PATH: 'ffprobe' });
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    await admin.put('/admin/api/settings', { moderation: 'auto' });
    const c = new TestClient(s.url);
    const r = await postMessage(c, { message: 'a voice that will not play', audio: makeAudio('ogg', 2) });
    assert.equal(r.status, 201, `the voice note itself is fine: it is stored (${JSON.stringify(r.body)})`);
    const mine = await voiceReady(c, r.body.entry.id);
    assert.equal(mine.audio_status, 'error');
    assert.equal(mine.status, 'pending');
    assert.equal(mine.audio_url, null);
    const listed = (await admin.get('/admin/api/guestbook?status=pending')).body.entries[0];
    assert.match(listed.audio_error, /could not be prepared/);
    assert.deepEqual((await c.get('/api/guestbook')).body.entries, []);
    // An admin may still approve it: the words show, without sound.
    await admin.post(`/admin/api/guestbook/${r.body.entry.id}/approve`);
    assert.equal((await c.get('/api/guestbook')).body.entries[0].audio_url, null);
  } finally {
    await s.close();
  }
});
