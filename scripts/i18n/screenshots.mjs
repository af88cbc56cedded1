// Screenshots of the guest pages and the admin panel in chosen languages, for reading a translation
// as its speakers will (docs/translating.md "Translating"). Runs the built site (`node scripts/build.mjs` first)
// on a throw-away data folder with a few photos, a schedule, an upload in the box, an error and
// "My uploads", and writes PNGs to test-artifacts/screens/. Each page is also measured: text outside
// the screen, text cut off by its box, and text drawn over other text are listed on stdout.
//
//   node scripts/i18n/screenshots.mjs --lang ar,he --width 360
//   node scripts/i18n/screenshots.mjs --lang el --width 390 --pages live,gallery
//   node scripts/i18n/screenshots.mjs --serve   (the seeded site stays up for a look by hand)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { layoutProblems } from './layout-problems.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN = { username: 'admin', password: 'screens-password-1' };
const PAGES = ['home', 'live', 'gallery', 'viewer', 'login', 'dashboard', 'photos', 'queue', 'users', 'settings', 'qr'];

const { values: opt } = parseArgs({
  options: {
    lang: { type: 'string', default: 'en' },
    width: { type: 'string', default: '390' },
    pages: { type: 'string', default: PAGES.join(',') },
    out: { type: 'string', default: path.join(ROOT, 'test-artifacts/screens') },
    serve: { type: 'boolean', default: false },
  },
});
const width = Number(opt.width);
const pages = opt.pages.split(',');
fs.mkdirSync(opt.out, { recursive: true });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-screens-'));
const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [path.join(ROOT, 'dist/server/main.js')], {
  cwd: ROOT,
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
let browser;
const cleanUp = async () => {
  await browser?.close();
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};

const fixture = (name) => path.join(ROOT, 'test/fixtures', name);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitUp() {
  for (let i = 0; i < 200; i++) {
    if (server.exitCode !== null) throw new Error('the server exited');
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  throw new Error('the server did not start');
}

/** An admin session for seeding: the cookie from the sign-in, sent with each call. */
async function adminCall() {
  const r = await fetch(`${base}/admin/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
  const cookie = r.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  return (method, p, body) =>
    fetch(base + p, { method, headers: { cookie, 'content-type': 'application/json', origin: base }, body: body && JSON.stringify(body) });
}

async function upload(file, name) {
  const fd = new FormData();
  fd.append('session_id', 'screens-seed');
  if (name) fd.append('uploader_name', name);
  fd.append('file', new Blob([fs.readFileSync(fixture(file))], { type: 'image/jpeg' }), file);
  const body = await (await fetch(`${base}/api/upload`, { method: 'POST', body: fd })).json();
  for (let i = 0; i < 300; i++) {
    const s = await (await fetch(`${base}/api/photos/${body.photo_id}/status`)).json();
    if (s.status === 'complete' || s.status === 'error') break;
    await sleep(200);
  }
  return body.photo_id;
}

/** A wedding with names, a schedule, photos in the gallery and one waiting for approval. */
async function seed() {
  const call = await adminCall();
  await call('PUT', '/admin/api/settings', {
    couple_names: ['Alexandra', 'Konstantinos'],
    welcome_message: 'We are so happy to celebrate with you.',
    show_uploader_names: true,
    schedule: [
      { title: 'Welcome Drinks', day: 'Friday, June 5', time: '19:00', venue: 'Garden Terrace', location: 'Lakeside Hotel', attire: 'Smart casual', attendance: 'Everyone', description: 'Drinks and music by the lake.' },
      { title: 'Ceremony', day: 'Saturday, June 6', time: '16:00', venue: 'Old Chapel', location: 'Hill Road 4', attire: 'Formal', attendance: 'Everyone', description: '' },
    ],
  });
  const names = ['Maria', 'Giorgos Papadopoulos-Konstantinidis', '', 'Anna'];
  const files = ['Canon_40D.jpg', 'Nikon_D70.jpg', 'Pentax_K10D.jpg', 'Fujifilm_FinePix_E500.jpg'];
  const ids = [];
  for (let i = 0; i < files.length; i++) ids.push(await upload(files[i], names[i]));
  for (const id of ids.slice(0, 3)) await call('POST', `/admin/api/photos/${id}/approve`);
  await call('POST', '/admin/api/users', { username: 'family.member', email: 'family@example.com', full_name: 'Eleni Konstantinidou', role: 'family', password: 'family-password-1' });
}

async function shoot(page, lang, name) {
  await sleep(300); // transitions and fonts settle
  const file = path.join(opt.out, `${lang}-${width}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const problems = await page.evaluate(layoutProblems);
  console.log(`${lang} ${name}: ${problems.length ? problems.length + ' problem(s)' : 'ok'} -> ${path.relative(ROOT, file)}`);
  for (const p of problems) console.log(`   ${p}`);
}

async function guestPages(lang) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`${lang}: page error ${e}`));
  if (pages.includes('home')) {
    await page.goto(`${base}/?lang=${lang}`);
    await page.locator('footer').waitFor();
    await shoot(page, lang, 'home');
  }
  if (pages.includes('live')) {
    await page.goto(`${base}/live?lang=${lang}`);
    await page.locator('footer').waitFor();
    await page.locator('input[type="text"]').first().fill('Alexandros');
    const text = path.join(dataDir, 'notes.txt');
    fs.writeFileSync(text, 'not a photo');
    await page.getByTestId('file-input').setInputFiles([fixture('Panasonic_DMC-FZ30.jpg'), fixture('corrupted.jpg'), text]);
    await page.locator('[data-status="complete"], [data-status="processing"], [data-status="duplicate"]').first().waitFor({ timeout: 60_000 });
    await page.getByTestId('my-upload').first().waitFor({ timeout: 30_000 }).catch(() => {});
    await shoot(page, lang, 'live');
  }
  if (pages.includes('gallery') || pages.includes('viewer')) {
    await page.goto(`${base}/gallery?lang=${lang}`);
    await page.locator('.gallery-grid:not([aria-busy]) li').first().waitFor();
    if (pages.includes('gallery')) await shoot(page, lang, 'gallery');
    if (pages.includes('viewer')) {
      await page.locator('.gallery-grid li button, .gallery-grid li a').first().click();
      await page.getByTestId('viewer-backdrop').waitFor();
      await page.locator('.viewer-backdrop img').first().waitFor().catch(() => {});
      await shoot(page, lang, 'viewer');
    }
  }
  await context.close();
}

async function adminPages(lang) {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.log(`${lang}: page error ${e}`));
  await page.goto(`${base}/admin/login?lang=${lang}`);
  await page.locator('input[type="password"]').waitFor();
  if (pages.includes('login')) await shoot(page, lang, 'login');
  await page.locator('input[autocomplete="username"], input[type="text"]').first().fill(ADMIN.username);
  await page.locator('input[type="password"]').fill(ADMIN.password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(/\/admin\/dashboard/);
  const visit = async (name, url, ready) => {
    if (!pages.includes(name)) return;
    await page.goto(base + url);
    await page.locator(ready).first().waitFor({ timeout: 30_000 });
    await shoot(page, lang, name);
  };
  await visit('dashboard', '/admin/dashboard', 'h1, h2');
  await visit('photos', '/admin/photos', '[data-testid="photo-card"]');
  await visit('queue', '/admin/photos?mode=queue', 'h1, h2');
  await visit('users', '/admin/users', 'h1, h2');
  await visit('settings', '/admin/settings', 'form, h1');
  await visit('qr', '/admin/qr', 'img, svg');
  await context.close();
}

try {
  await waitUp();
  await seed();
  if (opt.serve) {
    console.log(`${base} (admin: ${ADMIN.username} / ${ADMIN.password}); Ctrl-C stops it`);
    await new Promise((resolve) => ['SIGINT', 'SIGTERM'].forEach((sig) => process.once(sig, resolve)));
  }
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  for (const lang of opt.serve ? [] : opt.lang.split(',')) {
    await guestPages(lang);
    if (pages.some((p) => PAGES.indexOf(p) >= 4)) await adminPages(lang);
  }
} finally {
  await cleanUp();
}
