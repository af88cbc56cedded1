import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../server/db/open.js';
import { tempDir } from './temp.js';

/** test/fixtures/releases: one data folder per released schema (scripts/release-fixtures.ts made them). */
export const RELEASES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/releases');

export const releaseNames = (): string[] => fs.readdirSync(RELEASES_DIR).filter((n) => fs.existsSync(path.join(RELEASES_DIR, n, 'wedding.sql'))).sort();

/** The admin the fixture script signed in as (scripts/release-fixtures.ts FIXTURE_ADMIN). */
export const FIXTURE_USERS = { admin: 'fixture-admin-password', sofia: 'sofia-password-1', grandpa: 'grandpa-password-1' } as const;

/**
 * A data folder as the release left it: its database rebuilt from the SQL text, its session
 * secret and media copied. Sessions are made to expire a day from now (they were made with the
 * release's lifetime from the day the fixture was made): what is tested is that they survive.
 * The upload a phone left half-way is made as recent as it was when the fixture was made (its
 * timestamps moved to now, keeping its age): the server sweeps partial uploads untouched for a
 * day, so left with the fixture's dates it would be swept once the fixture is a day old.
 */
export function dataFolderOf(release: string): string {
  const from = path.join(RELEASES_DIR, release);
  const dataDir = tempDir(`wedding-${release}-`);
  const db = openDatabase(path.join(dataDir, 'wedding.db'));
  try {
    db.exec(fs.readFileSync(path.join(from, 'wedding.sql'), 'utf8'));
    const later = Date.now() + 24 * 3600_000;
    for (const s of db.prepare('SELECT sid, sess FROM sessions').all() as { sid: string; sess: string }[]) {
      const sess = JSON.parse(s.sess) as { cookie: { expires?: string } };
      sess.cookie.expires = new Date(later).toISOString();
      db.prepare('UPDATE sessions SET sess = ?, expires = ? WHERE sid = ?').run(JSON.stringify(sess), later, s.sid);
    }
    const now = Date.now();
    db.prepare(`UPDATE uploads SET created_at = ? - (updated_at - created_at), updated_at = ? WHERE status = 'receiving'`).run(now, now);
  } finally {
    db.close();
  }
  fs.copyFileSync(path.join(from, 'session-secret'), path.join(dataDir, 'session-secret'));
  fs.cpSync(path.join(from, 'media'), path.join(dataDir, 'media'), { recursive: true });
  return dataDir;
}

/** The cookie value express-session gives a browser for session `sid` under `secret` (cookie-signature). */
export function signedSessionCookie(sid: string, secret: string): string {
  const mac = crypto.createHmac('sha256', secret).update(sid).digest('base64').replace(/=+$/, '');
  return encodeURIComponent(`s:${sid}.${mac}`);
}
