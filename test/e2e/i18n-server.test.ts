import { GUEST_PART, PARTS, SERVER_PART } from '../../common/languages.js';
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { readCatalogues } from '../../scripts/i18n/catalogues.mjs';
import { isolateMessages } from '../../server/i18n/isolate.js';
import { ServerProcess } from '../helpers/browser.js';
import { buildWithLanguages } from '../helpers/i18n-build.js';
import { adminClient, TestClient } from '../helpers/server.js';
import { decodeQrPng } from './wall-helpers.js';
import sharp from 'sharp';
import { languageLimit, measureBundles } from '../../scripts/bundle-size.mjs';
import { ROOT } from '../../scripts/i18n/catalogues.mjs';

/**
 * The server in every language of a build that has the real catalogues plus pseudo German and
 * Arabic where those are missing (test/helpers/i18n-build.ts): each test runs for every language
 * of that build, so it also covers each real catalogue once it lands.
 */
const PUBLIC_URL = 'https://our-wedding.example';
let built: ReturnType<typeof buildWithLanguages>;
let srv: ServerProcess;
let langs: { code: string; dir: string; text(key: string, values?: Record<string, string | number>): string }[] = [];
const en = (key: string, values?: Record<string, string | number>) => langs.find((l) => l.code === 'en')!.text(key, values);

before(async () => {
  built = buildWithLanguages();
  srv = await new ServerProcess(undefined, { CLIENT_DIR: built.clientDir, PUBLIC_URL }, 0, built.entry).start();
  for (const c of await readCatalogues(path.join(built.dir, 'locales'))) {
    const dir = c.lang === 'ar' || c.lang === 'he' ? 'rtl' : 'ltr';
    const messages = Object.fromEntries(c.entries.map((e) => [e.key, compileMessage(e.text)]));
    // Right-to-left sentences carry their values isolated (server/i18n/isolate.ts).
    const book = setupI18n({ locale: c.lang, messages: { [c.lang]: dir === 'rtl' ? isolateMessages(messages) : messages } });
    langs.push({ code: c.lang, dir, text: (k, v) => book._(k, v) });
  }
});
after(async () => {
  await srv?.stop();
  built?.remove();
});

const others = () => langs.filter((l) => l.code !== 'en');
const page = (url: string, headers: Record<string, string> = {}) => fetch(srv.url + url, { headers, redirect: 'manual' });
const escapeHtml = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const htmlTag = (html: string) => /<html[^>]*>/.exec(html)?.[0];

test('every page comes in its language: <html lang dir>, the title, and the language file preloaded', async () => {
  assert.ok(langs.length >= 3, 'English and at least two test languages');
  for (const l of langs) {
    for (const p of ['/', '/live', '/gallery', '/admin/login']) {
      const r = await page(`${p}?lang=${l.code}`);
      const html = await r.text();
      // The theme rides on the same tag (data-theme); the language and direction are what count here.
      assert.match(htmlTag(html) ?? '', new RegExp(`^<html lang="${l.code}" dir="${l.dir}"( data-theme="[a-z]+")?>$`), `${l.code} ${p}`);
      // The title names the couple ("Emma and James's wedding") in the page's language.
      const [before, after] = l.text('app.title_couple', { names: '\u0000' }).split('\u0000');
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '';
      assert.ok(title.startsWith(escapeHtml(before)) && title.endsWith(escapeHtml(after)) && title.length > before.length + after.length, `${l.code} ${p} title: ${title}`);
      const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);
      if (l.code === 'en') assert.deepEqual(preloads, [], 'English is in the bundle');
      else {
        assert.ok(preloads.some((u) => u.includes(`locale-${l.code}-guest-`)), `${l.code} ${p}: ${preloads}`);
        assert.equal(preloads.some((u) => u.includes('-admin-')), p.startsWith('/admin'), `${l.code} ${p}: the admin part only on admin pages`);
        for (const u of preloads) assert.equal((await page(u)).status, 200, u);
      }
      assert.equal(r.headers.get('content-language'), l.code);
      // ?lang= is remembered for 400 days.
      assert.match(r.headers.get('set-cookie') ?? '', new RegExp(`wedding_lang=${l.code};.*Max-Age=34560000.*SameSite=Lax`, 'i'));
    }
  }
});

test('without ?lang= the cookie decides, then Accept-Language, then the default; unknown values are ignored', async () => {
  const [a, b] = others();
  const lang = async (headers: Record<string, string>, url = '/live') => /lang="([^"]+)"/.exec((await (await page(url, headers)).text()))?.[1];
  assert.equal(await lang({ cookie: `wedding_lang=${a.code}`, 'accept-language': b.code }), a.code);
  assert.equal(await lang({ 'accept-language': `xx, ${b.code}-XX;q=0.8, en;q=0.5` }), b.code);
  assert.equal(await lang({ cookie: 'wedding_lang=xx', 'accept-language': 'tlh' }), 'en');
  assert.equal(await lang({}, '/live?lang=xx'), 'en');
  // (The guest pages give a new visitor the guest cookie; the language cookie is what must not come.)
  const unknown = (await page('/live?lang=xx')).headers.getSetCookie();
  assert.deepEqual(unknown.filter((c) => c.startsWith('wedding_lang=')), [], 'an unknown ?lang= sets no language');
  // The default language: the couple's setting.
  const admin = await adminClient(srv.url);
  assert.equal((await admin.put('/admin/api/settings', { default_language: b.code })).status, 200);
  assert.equal(await lang({}), b.code);
  assert.equal(await lang({ 'accept-language': 'en' }), 'en');
  // The wall: ?lang= or the default, whatever the browser says.
  assert.equal(await lang({ cookie: `wedding_lang=${a.code}`, 'accept-language': a.code }, '/wall'), b.code);
  assert.equal(await lang({ cookie: `wedding_lang=${b.code}` }, `/wall?lang=${a.code}`), a.code);
  assert.equal((await admin.put('/admin/api/settings', { default_language: 'en' })).status, 200);
  assert.equal((await admin.put('/admin/api/settings', { default_language: 'xx' })).status, 400);
});

test('API errors come in the request language (cookie, else Accept-Language) with the same code', async () => {
  for (const l of langs) {
    for (const headers of [{ cookie: `wedding_lang=${l.code}` }, { 'accept-language': `${l.code};q=0.9` }] as Record<string, string>[]) {
      const login = await fetch(srv.url + '/admin/api/login', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
      assert.equal(login.status, 400);
      assert.deepEqual(await login.json(), { success: false, error: l.text('errors.auth.fields_required'), code: 'invalid_input' }, l.code);
      const missing = await (await fetch(srv.url + '/api/photos/nope/status', { headers })).json();
      assert.deepEqual(missing, { success: false, error: l.text('errors.photos.no_such_id'), code: 'not_found' });
      const route = await (await fetch(srv.url + '/api/nothing-here', { headers })).json();
      assert.equal(route.error, l.text('errors.http.no_route', { method: 'GET', path: '/nothing-here' }));
    }
    if (l.code !== 'en') assert.notEqual(l.text('errors.auth.fields_required'), en('errors.auth.fields_required'), `${l.code} is not English`);
  }
  // A form's problems are each in the language too.
  const l = others()[0];
  const admin = await adminClient(srv.url);
  await admin.fetch(`/live?lang=${l.code}`); // the page's ?lang= sets the client's cookie
  const r = await admin.put('/admin/api/settings', { couple_names: ['', 'B'], uploads_enabled: 'yes' });
  assert.equal(r.status, 400);
  assert.deepEqual(r.body.problems, [l.text('errors.rule.required', { field: l.text('errors.field.first_name') }), l.text('errors.rule.boolean', { field: 'uploads_enabled' })]);
});

test("the couple's words per language: a German welcome text reaches German guests, the rest see the default", async () => {
  const de = langs.find((l) => l.code === 'de')!;
  const admin = await adminClient(srv.url);
  const base = (await admin.get('/admin/api/settings')).body.settings;
  const put = await admin.put('/admin/api/settings', {
    translations: { de: { welcome_text: 'Schön, dass ihr da seid!', couple_names: ['Anna', ''], schedule: [{ title: 'Willkommensabend' }] } },
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  const guest = async (headers: Record<string, string>, url = '/api/settings') => (await (await fetch(srv.url + url, { headers })).json()) as any;
  const german = await guest({ cookie: 'wedding_lang=de' });
  assert.equal(german.language, 'de');
  assert.equal(german.settings.welcome_message, 'Schön, dass ihr da seid!');
  assert.deepEqual(german.settings.couple_names, ['Anna', base.couple_names[1]], 'a name left empty stays the default');
  assert.equal(german.settings.schedule[0].title, 'Willkommensabend');
  assert.equal(german.settings.schedule[0].moment, base.schedule[0].title, 'photos stay filed under the title the settings hold');
  assert.equal(german.settings.schedule[1].title, base.schedule[1].title);
  assert.equal(german.settings.translations, undefined, 'guests get their texts only');
  assert.deepEqual(german.languages.map((l: { code: string }) => l.code).sort(), langs.map((l) => l.code).sort());
  assert.equal((await guest({ 'accept-language': 'de-CH' })).settings.welcome_message, 'Schön, dass ihr da seid!');
  assert.equal((await guest({}, '/api/settings?lang=de')).settings.welcome_message, 'Schön, dass ihr da seid!');
  const english = await guest({ cookie: 'wedding_lang=en' });
  assert.equal(english.settings.welcome_message, base.welcome_message);
  assert.equal(english.default_language, 'en');
  // Bad translations are refused with the field named, and nothing is saved.
  for (const [body, field] of [
    [{ translations: { xx: { welcome_text: 'x' } } }, /translations\.xx/],
    [{ translations: { de: { welcome_text: 'x'.repeat(2001) } } }, /translations\.de\.welcome_text/],
    [{ translations: { de: { schedule: [{ colour: 'red' }] } } }, /translations\.de\.schedule\[0\]\.colour/],
    [{ translations: { de: { couple_names: ['only one'] } } }, /translations\.de\.couple_names/],
  ] as const) {
    const r = await admin.put('/admin/api/settings', body);
    assert.equal(r.status, 400, JSON.stringify(body).slice(0, 60));
    assert.match(r.body.error, field);
  }
  assert.equal((await guest({ cookie: 'wedding_lang=de' })).settings.welcome_message, 'Schön, dass ihr da seid!');
});

test("a QR sign in a language carries PUBLIC_URL/live?lang=xx; without one, plain /live", async () => {
  const c = new TestClient(srv.url);
  const decode = async (svg: string) => decodeQrPng(await sharp(Buffer.from(svg)).resize(600).png().toBuffer());
  for (const l of others()) {
    assert.equal((await c.get(`/api/public-url?lang=${l.code}`)).body.live_url, `${PUBLIC_URL}/live?lang=${l.code}`);
    assert.equal(await decode(await (await c.fetch(`/api/qr.svg?lang=${l.code}`)).text()), `${PUBLIC_URL}/live?lang=${l.code}`);
  }
  assert.equal((await c.get('/api/public-url?lang=xx')).body.live_url, `${PUBLIC_URL}/live`);
  assert.equal(await decode(await (await c.fetch('/api/qr.svg')).text()), `${PUBLIC_URL}/live`);
});

test('each language is a file of its own per catalogue part, at most 10 KB gzip (the admin panel\'s 16 KB), fetched only in that language', async () => {
  const m = measureBundles(ROOT, path.join(built.dir, 'dist'));
  for (const l of others()) {
    const files = m.languages.filter((f) => f.lang === l.code);
    // One file per part the browser loads: the guest pages', the admin panel's, each lazy feature's.
    const parts = [...new Set([GUEST_PART, ...Object.values(PARTS).filter((part) => part !== SERVER_PART)])].sort();
    assert.deepEqual(files.map((f) => f.part).sort(), parts, l.code);
    for (const f of files) assert.ok(f.gzip > 0 && f.gzip <= languageLimit(f.part), `${f.file}: ${f.gzip} bytes gzip`);
  }
  assert.ok(!m.guestFiles.some((f) => f.includes('locale-')), 'English pages load no language file');
});

test('the dashboard activity lines are in the reader language', async () => {
  for (const l of langs) {
    const admin = await adminClient(srv.url);
    await admin.fetch(`/live?lang=${l.code}`);
    const logins = (await admin.get('/admin/api/dashboard')).body.recent_activity.filter((a: { type: string }) => a.type === 'login');
    // The name may come first or last (Arabic: "تسجيل دخول: {name}"): the words around it must be the language's.
    const [before, after] = l.text('activity.signed_in', { name: '\u0000' }).split('\u0000');
    const reads = (d: string) => d.startsWith(before) && d.endsWith(after) && d.length > before.length + after.length;
    assert.ok(logins.length > 0 && logins.every((a: { description: string }) => reads(a.description)), `${l.code}: ${JSON.stringify(logins.slice(0, 2))}`);
  }
});
