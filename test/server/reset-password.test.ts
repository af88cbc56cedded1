import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { ADMIN, startTestServer, TestClient } from '../helpers/server.js';
import { codeAt } from '../helpers/totp.js';

const CLI = path.resolve('dist/server/reset-password.js');
const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });

test('reset-password gives a locked-out admin a new password while the site runs, and ends old sessions', async () => {
  const s = await startTestServer();
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    const generated = run('admin', '--data-dir', s.dataDir);
    assert.equal(generated.status, 0, generated.stderr);
    const pw = /New password for admin: (\S+)/.exec(generated.stdout)?.[1];
    assert.ok(pw && pw.length >= 12, generated.stdout);
    assert.equal((await admin.get('/admin/api/me')).status, 401, 'old session ended');
    assert.equal((await new TestClient(s.url).post('/admin/api/login', ADMIN)).status, 401, 'old password refused');
    await new TestClient(s.url).login('admin', pw);

    const chosen = run('admin', '--password', 'chosen-password', '--data-dir', s.dataDir);
    assert.equal(chosen.status, 0, chosen.stderr);
    await new TestClient(s.url).login('admin', 'chosen-password');
  } finally {
    await s.close();
  }
});

test('reset-password --reset-two-step removes the passkeys and codes of a locked-out admin, and the audit log says so', async () => {
  const s = await startTestServer();
  try {
    const admin = new TestClient(s.url);
    await admin.login();
    const setup = await admin.post('/admin/api/security/two-step/setup');
    assert.equal((await admin.post('/admin/api/security/two-step/enable', { code: codeAt(setup.body.secret) })).status, 200);
    assert.deepEqual((await new TestClient(s.url).post('/admin/api/login', ADMIN)).body, { success: true, needs_code: true });
    const r = run('admin', '--password', 'after-losing-the-phone', '--reset-two-step', '--data-dir', s.dataDir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /Passkeys and authenticator codes of admin removed/);
    const c = new TestClient(s.url);
    const signedIn = await c.post('/admin/api/login', { username: 'admin', password: 'after-losing-the-phone' });
    assert.equal(signedIn.body.user.username, 'admin', 'the password alone signs in');
    const entry = (await c.get('/admin/api/audit?action=user.reset_password')).body.entries[0];
    assert.deepEqual([entry.username, entry.address, entry.detail], ['admin', 'command line', { two_step_reset: true }]);
  } finally {
    await s.close();
  }
});

test('reset-password refuses unknown users and short passwords, naming the users there are', async () => {
  const s = await startTestServer();
  try {
    const unknown = run('nobody', '--data-dir', s.dataDir);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /No user "nobody"\. Users: admin/);
    const short = run('admin', '--password', 'short', '--data-dir', s.dataDir);
    assert.equal(short.status, 2);
    assert.match(short.stderr, /at least 8/);
    await new TestClient(s.url).login(); // unchanged
  } finally {
    await s.close();
  }
});
