import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import sharp from 'sharp';
import { contrast } from '../../common/contrast.js';
import { AA_TEXT, paletteWith, THEMES, usableAccent } from '../../common/themes.js';
import { uploadAsGuest } from '../e2e/admin-helpers.js';
import { sample } from '../helpers/samples.js';
import { startTestServer, TestClient } from '../helpers/server.js';

const TEXT = ['text', 'textMuted', 'accentStrong', 'goldText', 'dangerText', 'successText', 'warningText'] as const;
const SURFACES = ['bg', 'surface', 'surfaceMuted', 'accentSoft'] as const;

/** Every text colour on every surface it can sit on, and the buttons' text on them, below AA. */
function failures(p: ReturnType<typeof paletteWith>): string[] {
  const out: string[] = [];
  for (const f of TEXT) for (const b of SURFACES) if (contrast(p[f], p[b]) < AA_TEXT) out.push(`${f} on ${b}: ${contrast(p[f], p[b]).toFixed(2)}`);
  for (const b of ['accentStrong', 'accentDeep'] as const) if (contrast(p.onAccent, p[b]) < AA_TEXT) out.push(`onAccent on ${b}`);
  return out;
}

test('there are at least 8 themes, the named ones among them, each with its own palette and fonts', () => {
  const ids = THEMES.map((t) => t.id);
  assert.ok(ids.length >= 8);
  for (const id of ['sage', 'classic', 'garden', 'coastal', 'rustic', 'modern', 'blush', 'midnight']) assert.ok(ids.includes(id), id);
  assert.equal(new Set(THEMES.map((t) => `${t.palette.bg} ${t.palette.accentStrong}`)).size, THEMES.length, 'every palette differs');
  assert.equal(new Set(THEMES.map((t) => `${t.serif.family}/${t.sans.family}`)).size, THEMES.length, 'every font pairing differs');
});

test('every theme keeps WCAG AA contrast for every text on every surface', () => {
  for (const t of THEMES) assert.deepEqual(failures(t.palette), [], t.id);
});

test('an accent that would not read is adjusted until it passes; one that reads is kept', () => {
  for (const t of THEMES) {
    for (const accent of ['#ffdd00', '#f8c8dc', '#00ffff', '#202020', '#7a8b6f', '#ff0000']) {
      const used = usableAccent(t, accent);
      assert.deepEqual(failures(paletteWith(t, used)), [], `${t.id} ${accent} -> ${used}`);
    }
  }
  const sage = THEMES.find((t) => t.id === 'sage')!;
  assert.equal(usableAccent(sage, '#1f3a5f'), '#1f3a5f', 'a dark blue reads on a light theme as it is');
  assert.notEqual(usableAccent(sage, '#ffdd00'), '#ffdd00', 'yellow on ivory is darkened');
  const midnight = THEMES.find((t) => t.id === 'midnight')!;
  const used = usableAccent(midnight, '#1f3a5f');
  assert.ok(contrast(used, midnight.palette.bg) >= AA_TEXT && contrast(used, '#000000') > contrast('#1f3a5f', '#000000'), 'a dark accent is lightened on a dark theme');
});

let s: Awaited<ReturnType<typeof startTestServer>>;
let admin: TestClient;
before(async () => {
  s = await startTestServer({ COUPLE_NAMES: 'Anna & Ben' });
  admin = new TestClient(s.url);
  await admin.login();
});
after(() => s.close());

test('the settings list the themes and validate theme, accent and cover with readable 400s', async () => {
  const r = await admin.get('/admin/api/settings');
  assert.equal(r.status, 200);
  assert.equal(r.body.settings.theme, 'sage');
  assert.ok(r.body.themes.length >= 8);
  assert.ok(r.body.themes.every((t: { id: string; name: string }) => t.id && t.name && !t.name.startsWith('admin.')));
  const bad: [unknown, RegExp][] = [
    [{ theme: 'neon' }, /theme must be one of sage, classic/],
    [{ accent_color: 'red' }, /#rrggbb/],
    [{ accent_color: '#12345' }, /#rrggbb/],
    [{ cover_photo_id: 'no such photo' }, /cover_photo_id/],
    [{ cover_photo_id: 'abc123' }, /approved photo/],
    [{ cover_image: '0f0f0f0f-0000-4000-8000-000000000000' }, /upload a new cover image/],
  ];
  for (const [body, msg] of bad) {
    const res = await admin.put('/admin/api/settings', body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(res.body.error, msg);
  }
  assert.equal((await admin.get('/admin/api/settings')).body.settings.theme, 'sage', 'nothing stored from a refused change');
});

test('a failing accent is stored as chosen and answered with the colour the pages use', async () => {
  const r = await admin.put('/admin/api/settings', { theme: 'garden', accent_color: '#FFDD00' });
  assert.equal(r.status, 200);
  assert.equal(r.body.settings.accent_color, '#ffdd00');
  assert.match(r.body.accent_color_used, /^#[0-9a-f]{6}$/);
  assert.notEqual(r.body.accent_color_used, '#ffdd00');
  const html = await (await fetch(`${s.url}/`)).text();
  assert.match(html, /<html [^>]*data-theme="garden"/);
  assert.ok(html.includes(`--accent-strong:${r.body.accent_color_used}`), 'the page arrives with the adjusted accent');
  assert.match(html, /<title>Anna and Ben&#39;s wedding<\/title>|<title>Anna and Ben's wedding<\/title>/);
  assert.match(html, /<link rel="stylesheet" href="\/assets\/theme-garden-[0-9a-f]{8}\.css">/);
  const adminHtml = await (await fetch(`${s.url}/admin/settings`)).text();
  assert.doesNotMatch(adminHtml, /theme-vars/, 'the admin panel keeps its own look');
  assert.match(adminHtml, /theme-sage-/);
  const manifest = await (await fetch(`${s.url}/manifest.webmanifest`)).json();
  assert.equal(manifest.short_name, 'Anna and Ben');
  assert.equal(manifest.name, "Anna and Ben's wedding");
  assert.equal(manifest.background_color, THEMES.find((t) => t.id === 'garden')!.palette.bg);
  assert.ok(manifest.icons.length >= 2);
  assert.equal((await admin.put('/admin/api/settings', { theme: 'sage', accent_color: null })).status, 200);
});

test('an uploaded cover is processed, served, never in the gallery, and replaced cleanly', async () => {
  const fd = new FormData();
  fd.append('file', new Blob([fs.readFileSync(sample('orientation_portrait_6.jpg'))], { type: 'image/jpeg' }), 'cover.jpg');
  const res = await admin.fetch('/admin/api/settings/cover', { method: 'POST', body: fd, headers: { origin: s.url } });
  const body = await res.json();
  assert.equal(res.status, 201, JSON.stringify(body));
  assert.match(body.cover_url, /^\/api\/cover\/[0-9a-f-]{36}\.webp$/);
  const img = await fetch(s.url + body.cover_url);
  assert.equal(img.status, 200);
  const meta = await sharp(Buffer.from(await img.arrayBuffer())).metadata();
  assert.equal(meta.format, 'webp');
  assert.ok(meta.height! > meta.width!, 'turned upright as its EXIF says');
  assert.equal(meta.exif, undefined, 'no metadata left');
  assert.equal((await (await fetch(`${s.url}/api/settings`)).json()).cover_url, body.cover_url);
  const gallery = await (await fetch(`${s.url}/api/photos`)).json();
  assert.equal(gallery.photos.length, 0, 'the cover never enters the gallery');

  const text = new FormData();
  text.append('file', new Blob(['not an image']), 'notes.txt');
  const refused = await admin.fetch('/admin/api/settings/cover', { method: 'POST', body: text, headers: { origin: s.url } });
  assert.equal(refused.status, 415);
  assert.match((await refused.json()).error, /JPEG, PNG/);

  const removed = await admin.del('/admin/api/settings/cover');
  assert.equal(removed.status, 200);
  assert.equal(removed.body.cover_url, null);
  assert.equal((await fetch(s.url + body.cover_url)).status, 404, 'the old file is gone');
});

test('an approved photo can be the cover; hiding it takes the cover away', async () => {
  const id = await uploadAsGuest(s.url, 'Canon_40D.jpg');
  assert.equal((await admin.put('/admin/api/settings', { cover_photo_id: id })).status, 400, 'not approved yet');
  assert.equal((await admin.post(`/admin/api/photos/${id}/approve`)).status, 200);
  const r = await admin.put('/admin/api/settings', { cover_photo_id: id });
  assert.equal(r.status, 200);
  assert.equal(r.body.cover_url, `/media/${id}/display`);
  assert.equal((await (await fetch(`${s.url}/api/settings`)).json()).cover_url, `/media/${id}/display`);
  assert.equal((await admin.post(`/admin/api/photos/${id}/hide`)).status, 200);
  assert.equal((await (await fetch(`${s.url}/api/settings`)).json()).cover_url, null);
});
