// `node dist/server/reset-password.js USERNAME [--password NEW] [--reset-two-step] [--data-dir DIR]`:
// for a family member locked out of the only admin account. Sets a new password (generated and
// printed when none is given), re-activates the account and signs it out everywhere; with
// --reset-two-step it also removes the account's passkeys and authenticator codes (a lost phone).
// Recorded in the audit log. Safe while the site runs.
import crypto from 'node:crypto';
import path from 'node:path';
import { passwordProblem } from '../common/rules.js';
import { inEnglish } from './i18n/english.js';
import { SqliteSessionStore } from './auth/session-store.js';
import { fail, resolveDataDir } from './backup/cli.js';
import { dataPaths } from './context.js';
import { createKysely, openSqlite } from './db/open.js';
import { AuditLog } from './audit/audit-log.js';
import { SecurityRepo } from './security/security.repo.js';
import { UsersService } from './users/users.service.js';

const USAGE = 'Usage: node dist/server/reset-password.js USERNAME [--password NEW] [--reset-two-step] [--data-dir DIR]';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) fail(USAGE, 0);
  let password: string | undefined;
  const p = args.indexOf('--password');
  if (p !== -1) {
    password = args[p + 1];
    const problem = passwordProblem(password ?? '', 'The new password');
    if (problem) fail(inEnglish(problem.key, problem.values));
    args.splice(p, 2);
  }
  const resetTwoStep = args.includes('--reset-two-step');
  if (resetTwoStep) args.splice(args.indexOf('--reset-two-step'), 1);
  const dataDir = resolveDataDir(args);
  if (args.length !== 1 || args[0].startsWith('--')) fail(USAGE);
  const username = args[0];

  const sqlite = openSqlite(dataPaths(path.resolve(dataDir)).database);
  const db = createKysely(sqlite);
  // The sessions table belongs to the session store: it signs the user out everywhere.
  const sessions = new SqliteSessionStore(sqlite);
  try {
    const users = new UsersService(db, sessions);
    const generated = password === undefined;
    const newPassword = password ?? crypto.randomBytes(12).toString('base64url');
    const stored = await users.resetPassword(username, newPassword);
    if (stored === null) {
      const names = (await users.list()).map((u) => u.username);
      fail(`No user "${username}". Users: ${names.join(', ') || '(none)'}`, 1);
    }
    const id = (await users.list()).find((u) => u.username === stored)?.id;
    if (resetTwoStep && id !== undefined) await new SecurityRepo(db).resetAll(id);
    const audit = new AuditLog(db);
    audit.record('user.reset_password', { user: null, username: stored, address: 'command line' }, { ids: id === undefined ? [] : [id], detail: { two_step_reset: resetTwoStep } });
    await audit.stop();
    if (resetTwoStep) process.stdout.write(`Passkeys and authenticator codes of ${stored} removed: the password alone signs in.\n`);
    process.stdout.write(
      generated
        ? `New password for ${stored}: ${newPassword}\nIt is shown only once: write it down, then sign in at /admin/login.\n`
        : `Password for ${stored} changed. Sign in at /admin/login.\n`,
    );
  } finally {
    sessions.close();
    await db.destroy(); // closes the better-sqlite3 handle
  }
}

main().catch((err) => fail(`Could not reset the password: ${err instanceof Error ? err.message : String(err)}`, 1));
