import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createBackup } from '../../server/backup/create.js';
import { restoreBackup } from '../../server/backup/restore.js';
import { serverWithAdmin, startTestServer, tempDir, TestClient, type TestServer } from '../helpers/server.js';
import { makeAudio, postMessage, voiceReady } from '../helpers/guestbook.js';
import { watchEvents } from '../helpers/sse-text.js';
import { run, saveBody } from './export-fixtures.js';

let s: TestServer;
let admin: TestClient;
let anna: TestClient;
let ben: TestClient;
const work = tempDir('wedding-guestbook-zip-');
const voice = makeAudio('webm', 3);
const ids: Record<'voiced' | 'text' | 'hidden', string> = { voiced: '', text: '', hidden: '' };

before(async () => {
  ({ s, admin, client: anna } = await serverWithAdmin());
  ben = new TestClient(s.url);
  await admin.put('/admin/api/settings', { couple_names: ['Zoë', 'Luc'], time_zone: 'Europe/Paris' });
});
after(() => s.close());

const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe('the wall', () => {
  test('an approved message reaches open walls as guestbook-visible (words and name, no sound); hidden, guestbook-hidden', async () => {
    const wall = await watchEvents(s.url);
    try {
      await wall.waitFor('ready');
      const r = await postMessage(anna, { message: 'Dance all night!', name: 'Anna', audio: voice });
      ids.voiced = r.body.entry.id;
      await admin.post(`/admin/api/guestbook/${ids.voiced}/approve`);
      const shown = await wall.waitFor('guestbook-visible');
      assert.deepEqual(Object.keys(shown).sort(), ['created_at', 'id', 'message', 'name'], 'no audio on the wall');
      assert.deepEqual([shown.id, shown.message, shown.name], [ids.voiced, 'Dance all night!', 'Anna']);
      await admin.post(`/admin/api/guestbook/${ids.voiced}/hide`);
      assert.deepEqual(await wall.waitFor('guestbook-hidden'), { id: ids.voiced });
      await admin.post(`/admin/api/guestbook/${ids.voiced}/approve`);
      await wall.waitFor('guestbook-visible');
    } finally {
      await wall.close();
    }
  });

  test('auto moderation: a text message reaches the wall the moment it is written; deleting it takes it off', async () => {
    await admin.put('/admin/api/settings', { moderation: 'auto' });
    const wall = await watchEvents(s.url);
    try {
      await wall.waitFor('ready');
      const r = await postMessage(ben, { message: 'Cheers from table 4' });
      ids.text = r.body.entry.id;
      assert.equal((await wall.waitFor('guestbook-visible')).message, 'Cheers from table 4');
      const gone = await postMessage(ben, { message: 'oops, typo' });
      await wall.waitFor('guestbook-visible');
      await ben.del(`/api/my/guestbook/${gone.body.entry.id}`);
      assert.deepEqual(await wall.waitFor('guestbook-hidden'), { id: gone.body.entry.id });
    } finally {
      await admin.put('/admin/api/settings', { moderation: 'manual' });
      await wall.close();
    }
  });

  test('a wall reconnecting with Last-Event-ID is not sent a message hidden since', async () => {
    const hidden = await postMessage(ben, { message: 'Should not come back', audio: voice });
    ids.hidden = hidden.body.entry.id;
    const last = (s.ctx.sqlite.prepare('SELECT max(id) AS n FROM events').get() as { n: number }).n;
    await admin.post(`/admin/api/guestbook/${ids.hidden}/approve`);
    await admin.post(`/admin/api/guestbook/${ids.hidden}/hide`);
    const res = await fetch(`${s.url}/api/events`, { headers: { 'last-event-id': String(last) } });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/event: ready/.test(text)) text += (await reader.read()).value ?? '';
    await reader.cancel();
    assert.doesNotMatch(text, /event: guestbook-visible/, 'replay skips it');
    assert.match(text, /event: guestbook-hidden/);
  });
});

interface Extracted {
  dir: string;
  entries: string[];
  manifest: any;
}

let n = 0;
async function exportZip(url: string, init?: RequestInit): Promise<Extracted> {
  const res = await admin.fetch(url, init);
  assert.equal(res.status, 200);
  const zip = path.join(work, `g${++n}.zip`);
  await saveBody(res, zip);
  const t = await run('unzip', ['-t', zip]);
  assert.match(t.stdout, /No errors detected/);
  const entries = (await run('unzip', ['-Z1', zip])).stdout.split('\n').filter(Boolean);
  const dir = path.join(work, `g${n}`);
  await run('unzip', ['-q', zip, '-d', dir]);
  return { dir, entries, manifest: JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) };
}

describe('the ZIP export', () => {
  test('guestbook/guestbook.html: every visible message with its name and time, self-contained; the voice notes as sent beside it', async () => {
    await voiceReady(anna, ids.voiced);
    const tricky = await postMessage(ben, { message: '<script>alert("hi")</script> & love', name: 'Ben <b>' });
    await admin.post(`/admin/api/guestbook/${tricky.body.entry.id}/approve`);
    const x = await exportZip('/admin/api/export.zip?scope=all');
    assert.ok(x.entries.includes('guestbook/guestbook.html'), x.entries.join('\n'));
    assert.equal(x.entries.at(-1), 'manifest.json');
    const html = fs.readFileSync(path.join(x.dir, 'guestbook/guestbook.html'), 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /Zoë &amp; Luc/);
    assert.match(html, /Dance all night!/);
    assert.match(html, /Cheers from table 4/);
    assert.match(html, /<span class="name">Anna<\/span>/);
    assert.match(html, /<span class="name">A guest<\/span>/, 'anonymous messages are signed "A guest"');
    assert.match(html, /&lt;script&gt;alert\(&quot;hi&quot;\)&lt;\/script&gt; &amp; love/, 'guests\' words are escaped');
    assert.match(html, /Ben &lt;b&gt;/);
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /Should not come back/, 'hidden messages stay out');
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'nothing is fetched from anywhere');
    assert.doesNotMatch(html, /<link|@import|url\(/);
    // Times in the wedding's zone, as people read them.
    const created = (s.ctx.sqlite.prepare('SELECT created_at FROM guestbook WHERE id = ?').get(ids.voiced) as any).created_at;
    const local = new Intl.DateTimeFormat('en', { timeZone: 'Europe/Paris', dateStyle: 'long', timeStyle: 'short' }).format(new Date(created));
    assert.ok(html.includes(local), `the time reads "${local}"`);

    const notes = x.entries.filter((e) => e.startsWith('guestbook/voice-notes/'));
    assert.equal(notes.length, 1, 'the one visible voice note');
    assert.match(notes[0], /^guestbook\/voice-notes\/\d{4}-\d{2}-\d{2} \d{2}-\d{2}-\d{2} Anna\.webm$/);
    assert.ok(fs.readFileSync(path.join(x.dir, notes[0])).equals(voice), 'byte for byte as sent');
    assert.ok(html.includes(`href="${encodeURI(notes[0].slice('guestbook/'.length))}"`), 'the page links to it');
    assert.deepEqual(x.manifest.guestbook.map((v: any) => [v.name, v.id, v.sha256, v.file_size]), [[notes[0], ids.voiced, sha(voice), voice.length]]);
  });

  test('scope=visible holds the guestbook too; a selection of photos does not', async () => {
    const visible = await exportZip('/admin/api/export.zip?scope=visible');
    assert.ok(visible.entries.includes('guestbook/guestbook.html'));
    const selected = await exportZip('/admin/api/export.zip', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ photo_ids: ['no-such-photo'] }),
    });
    assert.ok(!selected.entries.some((e) => e.startsWith('guestbook/')));
  });
});

test('a backup holds the guestbook and its voice notes; restored, they serve again', async () => {
  await voiceReady(ben, ids.hidden);
  const archive = path.join(tempDir('wedding-gb-backup-'), 'b.tar.gz');
  const { manifest } = await createBackup({ dataDir: s.dataDir, archive });
  assert.equal(manifest.counts.guestbook, 4);
  assert.equal(manifest.files.guestbook, 4, 'two voice notes as sent and their two copies');
  const target = tempDir('wedding-gb-restored-');
  await restoreBackup({ archive, dataDir: target });
  const restored = await startTestServer({}, target);
  try {
    const c = new TestClient(restored.url);
    const entries = (await c.get('/api/guestbook?limit=100')).body.entries;
    const voiced = entries.find((e: any) => e.id === ids.voiced);
    assert.ok(voiced?.audio_url);
    const res = await c.fetch(voiced.audio_url);
    assert.equal(res.status, 200);
    assert.ok((await res.arrayBuffer()).byteLength > 1000);
    const row = restored.ctx.sqlite.prepare('SELECT audio_path FROM guestbook WHERE id = ?').get(ids.voiced) as any;
    assert.ok(fs.readFileSync(path.join(target, row.audio_path)).equals(voice));
  } finally {
    await restored.close();
  }
});
