// Makes test/fixtures/releases/<name>/: a data folder written by an earlier release of this site,
// for test/server/upgrade-releases.test.ts. For each release it checks the commit out (a git
// worktree in a temp folder, this checkout's node_modules linked in), builds it with its own build
// script, starts its own server on an empty DATA_DIR and uses it as people would over HTTP (an
// admin signs in and adds accounts, edits the settings, guests upload photos and a video and
// leave a chunked upload half-way, the admin approves some), stops it, and keeps:
//   wedding.sql      the database as SQL text (tables and rows, then indexes and triggers)
//   session-secret   the cookie secret that release generated
//   media/           originals, derivatives and the partial upload, as that release wrote them
//   release.json     commit, subject, migrations
//   phone/           the whole file of the half-way upload, as the guest's phone still holds it
// Run: npx tsx scripts/release-fixtures.ts [name ...]   (default: every release in RELEASES)
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'test/fixtures/releases');

/**
 * One release per schema: `git log --first-parent main -- server/db/migrations` lists the commits
 * where a set of migrations landed; each entry is the last commit of main with that set (for the
 * newest, the commit these fixtures were made from).
 */
export const RELEASES: Record<string, string> = {
  'schema-1-6213815': '6213815c36db4070d9120b1b0c29c1fef1a9f860',
  'schema-2-ad689d1': 'ad689d1', // + 0002 photos-gallery-order
  'schema-3-1255c2a': '1255c2a', // + 0003 gallery-version
  'schema-4-3d2b98b': '3d2b98b', // + 0004 media-bytes, 0005 upload-caps, 0007 listed-media, 0008 guests
};

export const FIXTURE_ADMIN = { username: 'admin', password: 'fixture-admin-password' };

const sh = (cmd: string, args: string[], cwd = ROOT) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] }).toString().trim();

/** SQL text that rebuilds the database: tables with their rows first, then indexes and triggers (so triggers do not fire on the rows). */
export function dumpDatabase(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const objects = db.prepare(`SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name`).all() as { type: string; name: string; sql: string }[];
    const lines = ['PRAGMA foreign_keys = OFF;', 'BEGIN;'];
    const quote = (v: unknown): string => {
      if (v === null) return 'NULL';
      if (typeof v === 'number' || typeof v === 'bigint') return String(v);
      if (Buffer.isBuffer(v)) return `X'${v.toString('hex')}'`;
      // Text with control characters (upload keys join their parts with NUL) goes as its UTF-8 bytes.
      if (/[\x00-\x08\x0b-\x1f]/.test(String(v))) return `CAST(X'${Buffer.from(String(v)).toString('hex')}' AS TEXT)`;
      return `'${String(v).replace(/'/g, "''")}'`;
    };
    for (const o of objects) {
      if (o.name === 'sqlite_sequence') continue; // made by SQLite itself with the first AUTOINCREMENT table
      lines.push(`${o.sql};`);
      if (o.type !== 'table') continue;
      for (const row of db.prepare(`SELECT * FROM "${o.name}" ORDER BY rowid`).raw().all() as unknown[][]) {
        lines.push(`INSERT INTO "${o.name}" VALUES(${row.map(quote).join(',')});`);
      }
    }
    for (const s of db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').all() as { name: string; seq: number }[]) {
      lines.push(`INSERT INTO sqlite_sequence (name, seq) VALUES(${quote(s.name)}, ${s.seq});`);
    }
    lines.push('COMMIT;');
    return lines.join('\n') + '\n';
  } finally {
    db.close();
  }
}

class Site {
  private cookie = '';
  constructor(readonly base: string) {}
  async call(method: string, p: string, body?: unknown, form?: FormData): Promise<any> {
    const headers: Record<string, string> = { origin: this.base };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + p, { method, headers, body: form ?? (body === undefined ? undefined : JSON.stringify(body)) });
    const set = res.headers.getSetCookie().map((c) => c.split(';')[0]);
    if (set.length) this.cookie = [...new Map([...this.cookie.split('; ').filter(Boolean), ...set].map((c) => [c.split('=')[0], c])).values()].join('; ');
    const answer = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  }
  login(username: string, password: string) {
    return this.call('POST', '/admin/api/login', { username, password });
  }
  upload(bytes: Buffer, filename: string) {
    const form = new FormData();
    form.append('session_id', 'fixture-guest-phone');
    form.append('file', new Blob([new Uint8Array(bytes)]), filename);
    return this.call('POST', '/api/upload', undefined, form);
  }
  chunk(bytes: Buffer, fields: Record<string, string | number | boolean>) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
    form.append('file', new Blob([new Uint8Array(bytes)]), 'blob');
    return this.call('POST', '/api/upload-chunk', undefined, form);
  }
}

async function media(work: string): Promise<{ jpegA: Buffer; jpegB: Buffer; png: Buffer; video: Buffer; big: Buffer }> {
  const video = path.join(work, 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=1:size=96x64:rate=5', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', video]);
  const noise = Buffer.from(Array.from({ length: 160 * 120 * 3 }, (_, i) => (i * 7919) % 251));
  return {
    // Real camera files (EXIF make, model, date), as in test/fixtures.
    jpegA: fs.readFileSync(path.join(ROOT, 'test/fixtures/Canon_40D.jpg')),
    jpegB: fs.readFileSync(path.join(ROOT, 'test/fixtures/Fujifilm_FinePix_E500.jpg')),
    png: await sharp({ create: { width: 48, height: 32, channels: 3, background: '#c06080' } }).png().toBuffer(),
    video: fs.readFileSync(video),
    big: await sharp(noise, { raw: { width: 160, height: 120, channels: 3 } }).jpeg({ quality: 95 }).toBuffer(),
  };
}

async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** What people do on the site: every kind of row and file the release keeps. */
async function populate(site: Site, base: string, files: Awaited<ReturnType<typeof media>>, phone: string): Promise<void> {
  await site.login(FIXTURE_ADMIN.username, FIXTURE_ADMIN.password);
  await site.call('POST', '/admin/api/users', { username: 'sofia', email: 'sofia@example.com', full_name: 'Sofia Rossi', role: 'bride', password: 'sofia-password-1' });
  await site.call('POST', '/admin/api/users', { username: 'grandpa', email: 'grandpa@example.com', full_name: 'Walter Rossi', role: 'family', password: 'grandpa-password-1' });
  const { settings } = await site.call('GET', '/admin/api/settings');
  await site.call('PUT', '/admin/api/settings', { ...settings, couple_names: ['Sofia', 'Luca'], welcome_message: 'Welcome to Sofia and Luca\'s wedding (fixture).' });
  // A second signed-in session: the family member on a phone.
  await new Site(base).login('grandpa', 'grandpa-password-1');

  const guest = new Site(base);
  const ids: string[] = [];
  for (const [bytes, name] of [[files.jpegA, 'IMG_0001.jpg'], [files.jpegB, 'IMG_0002.jpg'], [files.png, 'drawing.png'], [files.video, 'first-dance.mp4']] as const) {
    ids.push((await guest.upload(bytes, name)).photo_id);
  }
  // A chunked upload left half-way (the phone went out of range).
  const half = Math.floor(files.big.length / 2);
  fs.mkdirSync(phone, { recursive: true });
  fs.writeFileSync(path.join(phone, 'IMG_0003.jpg'), files.big);
  await guest.chunk(files.big.subarray(0, half), { chunk_start: 0, chunk_end: half, total_size: files.big.length, filename: 'IMG_0003.jpg', session_id: 'fixture-guest-phone', is_last_chunk: false });
  for (const id of ids) {
    await waitFor(`photo ${id}`, async () => (await fetch(`${base}/api/photos/${id}/status`).then((r) => r.json())).status !== 'processing');
  }
  for (const id of [ids[0], ids[3]]) await site.call('POST', `/admin/api/photos/${id}/approve`);
}

async function makeFixture(name: string, commit: string): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'wedding-release-'));
  const src = path.join(work, 'src');
  const dataDir = path.join(work, 'data');
  sh('git', ['worktree', 'add', '--detach', src, commit]);
  try {
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(src, 'node_modules'));
    sh(process.execPath, ['scripts/build.mjs'], src);
    const port = 20000 + Math.floor(Math.random() * 12000);
    const base = `http://127.0.0.1:${port}`;
    const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ADMIN_USERNAME: FIXTURE_ADMIN.username, ADMIN_PASSWORD: FIXTURE_ADMIN.password, LOG_LEVEL: 'warn', NODE_ENV: 'production' };
    const server = spawn(process.execPath, ['dist/server/main.js'], { cwd: src, env, stdio: ['ignore', 'inherit', 'inherit'] });
    const exited = new Promise((r) => server.once('exit', r));
    try {
      await waitFor('the server', async () => (await fetch(`${base}/api/health`)).ok, 30_000);
      await populate(new Site(base), base, await media(work), path.join(work, 'phone'));
    } finally {
      server.kill('SIGTERM');
      await exited;
    }
    const dir = path.join(OUT, name);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'wedding.sql'), dumpDatabase(path.join(dataDir, 'wedding.db')));
    fs.copyFileSync(path.join(dataDir, 'session-secret'), path.join(dir, 'session-secret'));
    fs.cpSync(path.join(dataDir, 'media'), path.join(dir, 'media'), { recursive: true });
    fs.cpSync(path.join(work, 'phone'), path.join(dir, 'phone'), { recursive: true });
    const migrations = sh('git', ['ls-tree', '--name-only', commit, 'server/db/migrations/']).split('\n').map((f) => path.basename(f, '.ts'));
    const info = { commit: sh('git', ['rev-parse', commit]), subject: sh('git', ['log', '-1', '--format=%s', commit]), date: sh('git', ['log', '-1', '--format=%cI', commit]), migrations };
    fs.writeFileSync(path.join(dir, 'release.json'), JSON.stringify(info, null, 2) + '\n');
    console.log(`${name}: ${info.commit.slice(0, 7)} ${migrations.length} migrations -> ${path.relative(ROOT, dir)}`);
  } finally {
    sh('git', ['worktree', 'remove', '--force', src]);
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : Object.keys(RELEASES)) {
    if (!RELEASES[name]) throw new Error(`Unknown release ${name}; known: ${Object.keys(RELEASES).join(', ')}`);
    await makeFixture(name, RELEASES[name]);
  }
}
