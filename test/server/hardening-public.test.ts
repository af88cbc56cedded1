import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sample } from '../helpers/samples.js';
import { TestClient } from '../helpers/server.js';
import { uploadFile, waitForStatus } from '../helpers/uploads.js';
import { tunnelSite } from './hardening-helpers.js';

const site = tunnelSite();

/** A real upload, processed, then approved or hidden by the admin. */
async function stored(file: string, visible: boolean): Promise<string> {
  const up = await uploadFile(site.s.url, sample(file), file);
  assert.equal(up.status, 201, JSON.stringify(up.body));
  const id = up.body.photo_id as string;
  assert.equal(await waitForStatus(site.s.url, id), 'complete');
  assert.equal((await site.admin.post(`/admin/api/photos/${id}/${visible ? 'approve' : 'hide'}`)).status, 200);
  return id;
}

/** An open /api/events stream: its blocks up to `ready`, and what arrives later. */
async function wall(headers: Record<string, string> = {}) {
  const ac = new AbortController();
  const res = await fetch(`${site.s.url}/api/events`, { headers, signal: ac.signal });
  const blocks: { id: string; event: string; data: any }[] = [];
  if (res.status !== 200) return { res, blocks, close: () => ac.abort() };
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buf = '';
  while (!blocks.some((b) => b.event === 'ready')) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before ready');
    buf += value;
    let end: number;
    while ((end = buf.indexOf('\n\n')) >= 0) {
      const fields = Object.fromEntries(buf.slice(0, end).split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
      buf = buf.slice(end + 2);
      if (fields.event) blocks.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data) });
    }
  }
  return { res, blocks, close: () => ac.abort() };
}

test('/api/stats names cameras and counts devices over visible media only; counts and sizes over all', async () => {
  await stored('Canon_40D.jpg', true);
  await stored('Nikon_D70.jpg', false); // a guest's EXIF text, not approved
  const r = await fetch(`${site.s.url}/api/stats`).then((x) => x.json() as Promise<any>);
  assert.equal(r.stats.total_photos, 2);
  assert.deepEqual(r.stats.cameras, [{ name: 'Canon EOS 40D', count: 1 }]);
  assert.equal(r.stats.unique_devices, 1);
  assert.ok(!JSON.stringify(r).includes('NIKON'), 'the hidden photo camera appears nowhere');
  // The admin dashboard still sees every camera.
  const dash = await site.admin.get('/admin/api/dashboard');
  assert.equal(dash.status, 200);
  assert.ok(JSON.stringify(dash.body).includes('NIKON D70'), JSON.stringify(dash.body).slice(0, 500));
});

test('public media answers are Cache-Control: private (no shared cache keeps a photo hidden later)', async () => {
  const id = await stored('Pentax_K10D.jpg', true);
  const item = (await fetch(`${site.s.url}/api/photos?limit=100`).then((x) => x.json() as Promise<any>)).photos.find((p: any) => p.id === id);
  for (const url of [item.thumbnail_url, item.backblaze_url, `/media/${id}/thumb`, `/media/${id}/display`]) {
    const res = await fetch(site.s.url + url);
    assert.equal(res.status, 200, url);
    const cc = res.headers.get('cache-control') ?? '';
    assert.match(cc, /^private\b/, `${url}: ${cc}`);
    assert.doesNotMatch(cc, /public/);
    await res.arrayBuffer();
  }
  // Hidden now: the same URL is gone for guests.
  await site.admin.post(`/admin/api/photos/${id}/hide`);
  assert.equal((await fetch(site.s.url + item.thumbnail_url)).status, 404);
});

test('a reconnecting wall is not sent photo-visible for a photo hidden while it was away', async () => {
  const first = await wall();
  const lastSeen = first.blocks.find((b) => b.event === 'ready')!.data.last_event_id as number;
  first.close();
  // While the wall is away: one photo is approved and hidden again, another is approved and stays.
  const gone = await stored('Fujifilm_FinePix_E500.jpg', true);
  await site.admin.post(`/admin/api/photos/${gone}/hide`);
  const stays = await stored('Panasonic_DMC-FZ30.jpg', true);

  const again = await wall({ 'Last-Event-ID': String(lastSeen) });
  try {
    const visible = again.blocks.filter((b) => b.event === 'photo-visible').map((b) => b.data.id);
    assert.ok(visible.includes(stays), JSON.stringify(again.blocks));
    assert.ok(!visible.includes(gone), 'the hidden photo is not shown again');
    const ready = again.blocks.at(-1)!;
    assert.equal(ready.event, 'ready');
    assert.equal(ready.data.resync, false);
  } finally {
    again.close();
  }
});

test('at most 10 wall streams per client address; the 11th is 429 with Retry-After, other addresses are not affected', async () => {
  const venue = { 'x-forwarded-for': '203.0.113.10' };
  const open = [];
  for (let i = 0; i < 10; i++) {
    const w = await wall(venue);
    assert.equal(w.res.status, 200);
    open.push(w);
  }
  try {
    const eleventh = await wall(venue);
    assert.equal(eleventh.res.status, 429);
    assert.ok(Number(eleventh.res.headers.get('retry-after')) > 0);
    const body = (await eleventh.res.json()) as { success: boolean; code: string; error: string };
    assert.equal(body.success, false);
    assert.equal(body.code, 'rate_limited');
    // A client-made X-Forwarded-For in front does not open another slot.
    assert.equal((await wall({ 'x-forwarded-for': '10.1.1.1, 203.0.113.10' })).res.status, 429);
    const elsewhere = await wall({ 'x-forwarded-for': '203.0.113.11' });
    assert.equal(elsewhere.res.status, 200);
    elsewhere.close();
    // A closed stream gives its slot back.
    open.pop()!.close();
    const deadline = Date.now() + 3000;
    let again = await wall(venue);
    while (again.res.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      again = await wall(venue);
    }
    assert.equal(again.res.status, 200);
    again.close();
  } finally {
    for (const w of open) w.close();
  }
});
