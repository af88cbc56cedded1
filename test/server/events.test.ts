import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import express from 'express';
import { createEventsModule } from '../../server/events/events.module.js';
import { startTestServer } from '../helpers/server.js';

interface SseMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  retry?: string;
}

/** Reads a real text/event-stream response block by block, as a browser's parser would. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(url, { headers, signal: ac.signal });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  const seen: SseMessage[] = [];
  const parse = (block: string): SseMessage => {
    const m: SseMessage = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) m.comment = line.slice(1).trim();
      else {
        const i = line.indexOf(':');
        const field = line.slice(0, i) as keyof SseMessage;
        m[field] = line.slice(i + 1).replace(/^ /, '');
      }
    }
    return m;
  };
  /** Resolves with the first block (past or future) matching `pred`, within `ms`. */
  const next = async (pred: (m: SseMessage) => boolean, ms = 5000): Promise<SseMessage> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const i = seen.findIndex(pred);
      if (i >= 0) return seen.splice(0, i + 1)[i];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${ms} ms; saw ${JSON.stringify(seen)}`);
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        reader.read(),
        new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), left))),
      ]);
      clearTimeout(timer);
      if (chunk === 'timeout') continue;
      if (chunk.done) throw new Error(`stream ended; saw ${JSON.stringify(seen)}`);
      buf += chunk.value;
      let end: number;
      while ((end = buf.indexOf('\n\n')) >= 0) {
        seen.push(parse(buf.slice(0, end)));
        buf = buf.slice(end + 2);
      }
    }
  };
  const close = () => ac.abort();
  return { res, next, close, seen };
}

const item = (id: string) => ({
  id,
  content_type: 'image/jpeg',
  thumbnail_url: `/media/${id}/thumb.webp`,
  backblaze_url: `/media/${id}/original.jpg`,
  original_filename: `${id}.jpg`,
  upload_timestamp: '2025-06-07T18:30:00.000Z',
  date_taken: null,
  camera_make: 'Canon',
  camera_model: 'Canon EOS 40D',
  width: 640,
  height: 480,
});

/** A visible photo row for `id`: a replay shows photo-visible only for photos that are still visible. */
function shown(id: string) {
  s.writable()
    .prepare(`INSERT INTO photos (id, original_filename, stored_path, content_type, file_size, sha256, upload_timestamp, is_visible) VALUES (?, ?, ?, 'image/jpeg', 1, ?, ?, 1)`)
    .run(id, `${id}.jpg`, `media/originals/${id}.jpg`, `sha-${id}`, new Date().toISOString());
  return item(id);
}

async function until(check: () => boolean, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

let s: Awaited<ReturnType<typeof startTestServer>>;
/** The bus listeners of the server's own features (face search, guestbook, notifications), before any stream. */
let ownListeners = 0;
before(async () => {
  s = await startTestServer();
  ownListeners = s.services.bus.listenerCount();
});
after(() => s.close());

test('the stream answers with SSE headers and delivers a published photo with id, event and data', async () => {
  const st = await openStream(s.url + '/api/events');
  assert.equal(st.res.status, 200);
  assert.match(st.res.headers.get('content-type') ?? '', /^text\/event-stream/);
  assert.match(st.res.headers.get('cache-control') ?? '', /no-cache/);
  assert.equal(st.res.headers.get('x-accel-buffering'), 'no');
  assert.equal((await st.next((m) => m.retry !== undefined)).retry, '3000');
  const ready = await st.next((m) => m.event === 'ready');
  assert.equal(JSON.parse(ready.data!).resync, false);

  const published = await s.services.bus.photoVisible(item('p-first'));
  const m = await st.next((x) => x.event === 'photo-visible');
  assert.equal(m.id, String(published.id));
  assert.deepEqual(JSON.parse(m.data!), item('p-first'));

  const hidden = await s.services.bus.photoHidden('p-first');
  const h = await st.next((x) => x.event === 'photo-hidden');
  assert.equal(h.id, String(hidden.id));
  assert.deepEqual(JSON.parse(h.data!), { id: 'p-first' });
  st.close();
});

test('a reconnect with Last-Event-ID gets exactly the events it missed, then live ones', async () => {
  const st = await openStream(s.url + '/api/events');
  await st.next((m) => m.event === 'ready');
  const a = await s.services.bus.photoVisible(item('p-a'));
  const got = await st.next((m) => m.id === String(a.id));
  assert.equal(got.event, 'photo-visible');
  st.close();

  // While disconnected: three events.
  const missed = [await s.services.bus.photoVisible(shown('p-b')), await s.services.bus.photoHidden('p-a'), await s.services.bus.photoVisible(shown('p-c'))];

  const again = await openStream(s.url + '/api/events', { 'Last-Event-ID': String(a.id) });
  // Everything between connect and `ready`, in order, is exactly the missed events.
  const blocks: SseMessage[] = [];
  for (;;) {
    const m = await again.next((x) => x.event !== undefined);
    if (m.event === 'ready') {
      assert.deepEqual(JSON.parse(m.data!), { last_event_id: missed[2].id, resync: false });
      break;
    }
    blocks.push(m);
  }
  assert.deepEqual(
    blocks.map((b) => [Number(b.id), b.event, JSON.parse(b.data!).id]),
    missed.map((e) => [e.id, e.type, (e.data as { id: string }).id]),
  );

  const live = await s.services.bus.photoVisible(item('p-d'));
  const l = await again.next((m) => m.event === 'photo-visible');
  assert.equal(l.id, String(live.id));
  again.close();
});

test('?lastEventId= resumes a first connect the same way', async () => {
  const a = await s.services.bus.photoVisible(item('p-q1'));
  const b = await s.services.bus.photoVisible(shown('p-q2'));
  const st = await openStream(`${s.url}/api/events?lastEventId=${a.id}`);
  const m = await st.next((x) => x.event !== undefined);
  assert.equal(m.id, String(b.id));
  assert.equal(JSON.parse(m.data!).id, 'p-q2');
  st.close();
});

test('an id from another database asks the client to reload its list', async () => {
  const st = await openStream(s.url + '/api/events', { 'Last-Event-ID': '999999' });
  const ready = await st.next((m) => m.event === 'ready');
  assert.equal(JSON.parse(ready.data!).resync, true);
  assert.ok(Number(ready.id) < 999999);
  st.close();
});

test('closing the connection unsubscribes from the bus', async () => {
  const streamsOf = () => s.services.bus.listenerCount() - ownListeners;
  await until(() => streamsOf() === 0); // earlier tests' streams are gone
  const streams = [await openStream(s.url + '/api/events'), await openStream(s.url + '/api/events')];
  for (const st of streams) await st.next((m) => m.event === 'ready');
  assert.equal(streamsOf(), 2);
  streams[0].close();
  await until(() => streamsOf() === 1);
  streams[1].close();
  await until(() => streamsOf() === 0);
  // Publishing with nobody listening is fine.
  await s.services.bus.photoVisible(item('p-nobody'));
});

test('a ping comment arrives on an idle stream', async () => {
  const area = createEventsModule({ bus: s.services.bus }, { pingMs: 100 });
  const app = express();
  app.use('/api', ...area.publicApi!);
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const st = await openStream(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`);
    assert.match(st.res.headers.get('content-type') ?? '', /^text\/event-stream/);
    // The module stands on the bus it was given: events published there reach its streams.
    await st.next((m) => m.event === 'ready');
    assert.equal(area.streams.size, 1);
    const published = await s.services.bus.photoVisible(item('p-module'));
    assert.equal((await st.next((m) => m.event === 'photo-visible')).id, String(published.id));
    assert.equal((await st.next((m) => m.comment !== undefined, 2000)).comment, 'ping');
    assert.equal((await st.next((m) => m.comment !== undefined, 2000)).comment, 'ping');
    st.close();
    await until(() => area.streams.size === 0);
  } finally {
    area.closing!();
    server.closeAllConnections();
    server.close();
  }
});

test('shutting down ends open streams at once instead of waiting for them', async () => {
  const other = await startTestServer();
  const st = await openStream(other.url + '/api/events');
  await st.next((m) => m.event === 'ready');
  const t0 = Date.now();
  await other.close(8000);
  assert.ok(Date.now() - t0 < 5000, 'close did not wait for the stream');
  await assert.rejects(st.next(() => false, 2000), /stream ended/);
});
