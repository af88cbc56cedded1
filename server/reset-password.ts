// `node dist/server/reset-password.js USERNAME [--password NEW] [--data-dir DIR]`: for a family
// member locked out of the only admin account. Sets a new password (generated and printed when
// none is given), re-activates the account and signs it out everywhere. Safe while the site runs.
import crypto from 'node:crypto';
import path from 'node:path';
import { hashPassword } from './auth/passwords.js';
import { fail, resolveDataDir } from './backup/cli.js';
import { dataPaths } from './context.js';
import { openSqlite } from './db/open.js';

const USAGE = 'Usage: node dist/server/reset-password.js USERNAME [--password NEW] [--data-dir DIR]';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) fail(USAGE, 0);
  let password: string | undefined;
  const p = args.indexOf('--password');
  if (p !== -1) {
    password = args[p + 1];
    if (!password || password.length < 8) fail('The new password must be at least 8 characters.');
    args.splice(p, 2);
  }
  const dataDir = resolveDataDir(args);
  if (args.length !== 1 || args[0].startsWith('--')) fail(USAGE);
  const username = args[0];

  const db = openSqlite(dataPaths(path.resolve(dataDir)).database);
  try {
    const user = db.prepare('SELECT id, username FROM users WHERE username = ?').get(username) as
      | { id: number; username: string }
      | undefined;
    if (!user) {
      const names = (db.prepare('SELECT username FROM users ORDER BY id').all() as { username: string }[]).map((u) => u.username);
      fail(`No user "${username}". Users: ${names.join(', ') || '(none)'}`, 1);
    }
    const generated = password === undefined;
    const newPassword = password ?? crypto.randomBytes(12).toString('base64url');
    const hash = await hashPassword(newPassword);
    db.transaction(() => {
      db.prepare('UPDATE users SET password_hash = ?, is_active = 1 WHERE id = ?').run(hash, user.id);
      db.prepare(`DELETE FROM sessions WHERE json_extract(sess, '$.userId') = ?`).run(user.id);
    })();
    process.stdout.write(
      generated
        ? `New password for ${user.username}: ${newPassword}\nIt is shown only once: write it down, then sign in at /admin/login.\n`
        : `Password for ${user.username} changed. Sign in at /admin/login.\n`,
    );
  } finally {
    db.close();
  }
}

main().catch((err) => fail(`Could not reset the password: ${err instanceof Error ? err.message : String(err)}`, 1));
