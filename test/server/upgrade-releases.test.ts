// A data folder from any earlier release starts on this one with every photo, user, setting and
// session secret intact (CONTRACT "Nothing acknowledged is ever lost": upgrades). One fixture per
// released schema, made by that release's own server (test/fixtures/releases/README.md).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { SESSION_COOKIE } from '../../server/app.js';
import { MIGRATIONS } from '../../server/db/migrate.js';
import { openDatabase } from '../../server/db/open.js';
import { dataFolderOf, FIXTURE_USERS, releaseNames, RELEASES_DIR, signedSessionCookie } from '../helpers/releases.js';
import { startTestServer, TestClient } from '../helpers/server.js';

interface Before {
  users: { id: number; username: string; password_hash: string; role: string; is_active: number }[];
  photos: { id: string; original_filename: string; sha256: string; stored_path: string; is_visible: number; status: string; thumb_path: string | null; display_path: string | null; content_type: string }[];
  settings: Record<string, unknown>;
  sessions: { sid: string; sess: string }[];
  upload: { session_id: string; filename: string; total_size: number; received_bytes: number };
}

function readBefore(dataDir: string): Before {
  const db = openDatabase(path.join(dataDir, 'wedding.db'), { readonly: true });
  try {
    return {
      users: db.prepare('SELECT id, username, password_hash, role, is_active FROM users ORDER BY id').all() as Before['users'],
      photos: db.prepare('SELECT id, original_filename, sha256, stored_path, is_visible, status, thumb_path, display_path, content_type FROM photos ORDER BY id').all() as Before['photos'],
      settings: JSON.parse(db.prepare('SELECT data FROM settings').pluck().get() as string),
      sessions: db.prepare('SELECT sid, sess FROM sessions').all() as Before['sessions'],
      upload: db.prepare(`SELECT session_id, filename, total_size, received_bytes FROM uploads WHERE status = 'receiving'`).get() as Before['upload'],
    };
  } finally {
    db.close();
  }
}

const sha256 = (b: Buffer | Uint8Array) => crypto.createHash('sha256').update(b).digest('hex');

for (const release of releaseNames()) {
  test(`a data folder from release ${release} starts on this one with every photo, user, setting, session and the secret intact`, async () => {
    const dataDir = dataFolderOf(release);
    const before = readBefore(dataDir);
    const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8');
    assert.ok(before.photos.length >= 4 && before.users.length >= 3 && before.sessions.length >= 2, 'the fixture holds what is checked');

    const s = await startTestServer({}, dataDir);
    try {
      const db = s.ctx.sqlite;
      assert.deepEqual((db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name), Object.keys(MIGRATIONS));
      assert.equal(fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8'), secret, 'the session secret is kept');
      assert.equal(s.ctx.sessionSecret, secret.trim());

      // Users: the same rows, and each signs in with the password the release was given.
      assert.deepEqual(db.prepare('SELECT id, username, password_hash, role, is_active FROM users ORDER BY id').all(), before.users);
      for (const [username, password] of Object.entries(FIXTURE_USERS)) await new TestClient(s.url).login(username, password);

      // Sessions: a browser signed in on the old release is still signed in, as the same user.
      for (const { sid, sess } of before.sessions) {
        const me = await fetch(`${s.url}/admin/api/me`, { headers: { cookie: `${SESSION_COOKIE}=${signedSessionCookie(sid, secret.trim())}` } });
        assert.equal(me.status, 200, `session ${sid} survives`);
        const body = (await me.json()) as { user: { id: number } };
        assert.equal(body.user.id, (JSON.parse(sess) as { userId: number }).userId);
      }

      // Settings: every value the couple set is there.
      const settings = ((await fetch(`${s.url}/api/settings`).then((r) => r.json())) as { settings: Record<string, unknown> }).settings;
      for (const [k, v] of Object.entries(before.settings)) assert.deepEqual(settings[k], v, `setting ${k}`);
      assert.deepEqual(settings.couple_names, ['Sofia', 'Luca']);

      // Photos: every one listed for admins, with its original byte for byte and its derivatives served.
      const admin = new TestClient(s.url);
      await admin.login('admin', FIXTURE_USERS.admin);
      const listed = (await admin.get('/admin/api/photos?show_all=true&limit=100')).body.photos as { id: string; original_filename: string; status: string }[];
      assert.deepEqual(listed.map((p) => p.id).sort(), before.photos.map((p) => p.id).sort());
      for (const p of before.photos) {
        assert.equal(listed.find((l) => l.id === p.id)?.status, p.status, `${p.original_filename} keeps its state`);
        const link = (await admin.get(`/admin/api/photos/${p.id}/download`)).body.download_url as string;
        const original = await admin.fetch(link);
        assert.equal(original.status, 200, p.original_filename);
        assert.equal(sha256(new Uint8Array(await original.arrayBuffer())), p.sha256, `${p.original_filename}: the original, byte for byte`);
        for (const [kind, stored] of [['thumb', p.thumb_path], ['display', p.display_path]] as const) {
          if (!stored) continue;
          const res = await admin.fetch(`/media/${p.id}/${kind}`);
          assert.equal(res.status, 200, `${p.original_filename} ${kind}`);
          assert.deepEqual(Buffer.from(await res.arrayBuffer()), fs.readFileSync(path.join(dataDir, stored)));
        }
      }
      // Guests see the approved ones.
      const gallery = ((await fetch(`${s.url}/api/photos`).then((r) => r.json())) as { photos: { id: string }[] }).photos.map((p) => p.id).sort();
      assert.deepEqual(gallery, before.photos.filter((p) => p.is_visible).map((p) => p.id).sort());

      // The upload a phone left half-way resumes where it stopped and ends stored.
      const u = before.upload;
      const q = new URLSearchParams({ session_id: u.session_id, filename: u.filename, total_size: String(u.total_size) });
      const offset = (await fetch(`${s.url}/api/upload-chunk/offset?${q}`).then((r) => r.json())) as { received_bytes?: number; offset?: number };
      assert.equal(offset.received_bytes ?? offset.offset, u.received_bytes, JSON.stringify(offset));
      const whole = fs.readFileSync(path.join(RELEASES_DIR, release, 'phone', u.filename));
      const form = new FormData();
      for (const [k, v] of Object.entries({ chunk_start: u.received_bytes, chunk_end: whole.length, total_size: whole.length, filename: u.filename, session_id: u.session_id, is_last_chunk: true })) form.append(k, String(v));
      form.append('file', new Blob([new Uint8Array(whole.subarray(u.received_bytes))]), 'blob');
      const last = await fetch(`${s.url}/api/upload-chunk`, { method: 'POST', body: form });
      assert.equal(last.status, 201, await last.clone().text());
      const stored = db.prepare('SELECT sha256 FROM photos WHERE id = ?').pluck().get(((await last.json()) as { photo_id: string }).photo_id);
      assert.equal(stored, sha256(whole));
      await s.services.processing.idle();
    } finally {
      await s.close();
    }
  });
}
