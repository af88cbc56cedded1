// /gallery's HTML carries its first page of tiles and the answer they were drawn from
// (server/http/gallery-html.ts): exactly what this guest's GET /api/photos answers (visible photos
// only, the same order and addresses, their own hearts, names only while shown), nothing while
// the gallery is closed or on a filtered address, in the page's language, escaped, compressed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DRAWN_TILES } from '../../server/http/gallery-html.js';
import { translate } from '../../server/i18n/messages.js';
import { startTestServer, TestClient, type TestServer } from '../helpers/server.js';
import { addPhoto, testVideo } from './photos-fixture.js';

let s: TestServer;
let admin: TestClient;
const ids: Record<string, string> = {};

before(async () => {
  s = await startTestServer();
  admin = new TestClient(s.url);
  await admin.login();
  ids.cake = await addPhoto(s, { visible: true, uploadTimestamp: '2026-06-06T17:00:00.000Z', originalFilename: 'cake.jpg' });
  ids.oldest = await addPhoto(s, { visible: true, uploadTimestamp: '2026-06-06T18:00:00.000Z', originalFilename: 'toast.jpg' });
  ids.hidden = await addPhoto(s, { visible: false, uploadTimestamp: '2026-06-06T18:30:00.000Z', originalFilename: 'not-approved.jpg' });
  ids.video = await addPhoto(s, { file: testVideo(), visible: true, uploadTimestamp: '2026-06-06T19:00:00.000Z', originalFilename: 'first-dance.mp4' });
  ids.odd = await addPhoto(s, { visible: true, uploadTimestamp: '2026-06-06T20:00:00.000Z', originalFilename: '<img src=x onerror=alert(1)> "$&".jpg' });
  s.writable().prepare('UPDATE photos SET uploader_name = ? WHERE id = ?').run('Aunt Mathilda', ids.oldest);
});
after(async () => {
  await s.close();
});

/** A guest with its cookie (given by its first page). */
async function newGuest(): Promise<TestClient> {
  const g = new TestClient(s.url);
  await g.fetch('/');
  return g;
}

const page = async (g: TestClient, p = '/gallery', headers: Record<string, string> = {}) => {
  const res = await g.fetch(p, { headers });
  return { res, html: await res.text() };
};
const answersOf = (html: string) => {
  const m = /<script type="application\/json" id="early-answers">(.*?)<\/script>/s.exec(html);
  return m ? (JSON.parse(m[1]) as Record<string, any>) : null;
};
const srcsOf = (html: string) => [...html.matchAll(/<img alt="" loading="\w+"(?: fetchpriority="high")? decoding="async" src="([^"]*)">/g)].map((m) => m[1].replace(/&amp;/g, '&'));

test('the first page in the HTML is what GET /api/photos answers this guest: visible photos only, in order, with its hearts', async () => {
  const g = await newGuest();
  assert.equal((await g.json('PUT', `/api/photos/${ids.video}/heart`)).status, 200);
  const { res, html } = await page(g);
  const api = await g.get('/api/photos?limit=20&offset=0');
  const answers = answersOf(html);
  assert.ok(answers, 'the answer is in the page');
  assert.deepEqual(answers['/api/photos?limit=20&offset=0'], api.body);
  assert.deepEqual(api.body.photos.map((p: { id: string }) => p.id), [ids.odd, ids.video, ids.oldest, ids.cake]);
  // The tiles: the same thumbnails in the same order, the first fetched at once and before the
  // others; the first row with its pictures, the rest empty until the app gives them theirs.
  assert.equal(DRAWN_TILES, 3);
  assert.deepEqual(srcsOf(html), api.body.photos.slice(0, 3).map((p: { thumbnail_url: string }) => p.thumbnail_url));
  assert.ok(html.includes('<button type="button" class="gallery-tile" aria-label="Open photo cake.jpg"></button>'));
  assert.match(html, /<img alt="" loading="eager" fetchpriority="high" decoding="async" src="\/media\//);
  assert.ok(!html.includes(ids.hidden) && !html.includes('not-approved'), 'a hidden photo is nowhere in the page');
  assert.match(html, /class="gallery-tile gallery-tile-video" aria-label="Open video first-dance\.mp4">/);
  assert.match(html, /class="heart " aria-pressed="true" aria-label="Love this photo \(1 heart\)">/);
  assert.match(html, /data-testid="gallery-count">4 photo\(s\) and video\(s\) shared by our guests</);
  // Not asked for again by the head; the markup sits inside the app's element.
  assert.ok(!/"\/api\/photos\?limit=20&offset=0"\]\)self/.test(html) && html.includes('"/api/photos?limit=1&offset=0&highlights=true"'));
  assert.match(html, /<div id="root"><div class="page" data-first-screen><main class="container gallery-page">/);
  // Another guest has its own hearts: no shared cache may keep the page.
  assert.equal(res.headers.get('cache-control'), 'private, no-cache');
  assert.match(res.headers.get('vary') ?? '', /Cookie/);
  const other = await page(await newGuest());
  assert.ok(!other.html.includes('class="heart " aria-pressed="true"'), "another guest's page has no heart of this one's");
});

test('uploader names reach the page only while show_uploader_names is on', async () => {
  const g = await newGuest();
  assert.equal(answersOf((await page(g)).html)!['/api/photos?limit=20&offset=0'].photos.find((p: { id: string }) => p.id === ids.oldest).uploader_name, 'Aunt Mathilda');
  assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: false })).status, 200);
  try {
    const { html } = await page(g);
    assert.ok(!html.includes('Mathilda'));
    assert.deepEqual(answersOf(html)!['/api/photos?limit=20&offset=0'], (await g.get('/api/photos?limit=20&offset=0')).body);
  } finally {
    assert.equal((await admin.put('/admin/api/settings', { show_uploader_names: true })).status, 200);
  }
});

test('no tiles while the gallery is closed, on a filtered address, or on other pages', async () => {
  const g = await newGuest();
  const none = (html: string) => !html.includes('gallery-grid') && !html.includes('early-answers') && !Object.values(ids).some((id) => html.includes(id));
  assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: new Date(Date.now() + 3_600_000).toISOString() })).status, 200);
  try {
    const { res, html } = await page(g);
    assert.ok(none(html));
    assert.ok(html.includes('"/api/photos?limit=20&offset=0"'), 'the head asks for the page, which says when the gallery opens');
    assert.equal(res.headers.get('cache-control'), 'no-cache');
  } finally {
    assert.equal((await admin.put('/admin/api/settings', { gallery_opens_at: null })).status, 200);
  }
  for (const p of ['/gallery?sort=loved', '/gallery?moment=Ceremony', '/', '/live', '/guestbook', '/wall']) assert.ok(none((await page(g, p)).html), p);
  // Signed in, the gallery is still the guests' gallery: hidden photos stay out.
  const { html } = await page(admin);
  assert.ok(html.includes(ids.odd) && !html.includes(ids.hidden));
});

test("the page's language, right to left in Arabic; the guests' names escaped", async () => {
  const g = await newGuest();
  for (const lang of ['ar', 'de', 'en']) {
    const { html } = await page(g, `/gallery?lang=${lang}`);
    assert.match(html, new RegExp(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"`));
    for (const key of ['gallery.title', 'gallery.back', 'gallery.refresh', 'gallery.moments_all', 'gallery.most_loved', 'gallery.grid_label']) {
      const text = translate(lang, key).replace(/&/g, '&amp;');
      assert.ok(html.includes(text), `${lang}: ${key} "${text}"`);
    }
    assert.ok(html.includes(translate(lang, 'gallery.count', { count: 4 })), `${lang}: the count`);
  }
  const { html } = await page(g);
  assert.ok(html.includes('aria-label="Open photo &lt;img src=x onerror=alert(1)&gt; &quot;$&amp;&quot;.jpg"'), 'the name as text, $& kept');
  assert.ok(!html.includes('<img src=x'));
  assert.ok(html.includes('\\u003cimg src=x onerror=alert(1)>'), 'the answer cannot close its script element');
});

test('compressed for a browser that accepts it, the same page', async () => {
  const g = await newGuest();
  const plain = await page(g, '/gallery', { 'accept-encoding': 'identity' });
  assert.equal(plain.res.headers.get('content-encoding'), null);
  for (const encoding of ['br', 'gzip']) {
    const packed = await page(g, '/gallery', { 'accept-encoding': encoding });
    assert.equal(packed.res.headers.get('content-encoding'), encoding);
    assert.match(packed.res.headers.get('vary') ?? '', /Accept-Encoding/);
    assert.equal(packed.html, plain.html);
  }
});
