import { Router, type Request } from 'express';
import { requireAccount } from '../auth/auth.middleware.js';
import type { AuthUser } from '../auth/permissions.js';
import type { Config } from '../config.js';
import { AppError, isAppError } from '../errors.js';
import { addressKey } from '../http/address.js';
import { regenerate, save } from '../http/session.js';
import { relyingParty } from '../security/relying-party.js';
import type { Passkeys } from '../security/passkeys.js';
import type { SignInService } from './sign-in.service.js';

/** A password was right and the sign-in waits for its code for this long. */
const PENDING_MS = 5 * 60_000;

declare module 'express-session' {
  interface SessionData {
    /** Password checked, code not yet: nothing is allowed but POST /admin/api/login/code. */
    pending: { userId: number; username: string; until: number };
  }
}

/** A fresh session id holding the signed-in user (no session fixation). */
async function startSession(req: Request, userId: number): Promise<void> {
  await regenerate(req);
  req.session.userId = userId;
  req.session.signedInAt = Date.now();
  await save(req);
}

/** A fresh session that only remembers whose password was right, for the code step. */
async function startPending(req: Request, user: { id: number; username: string }): Promise<void> {
  await regenerate(req);
  req.session.pending = { userId: user.id, username: user.username, until: Date.now() + PENDING_MS };
  await save(req);
}

const who = (user: AuthUser) => {
  const { permissions, ...shown } = user;
  return { user: shown, user_permissions: permissions };
};

/** Refusals by the limit are recorded once a minute per name and address, so a flood of them cannot flood the log. */
const recentRefusals = new Map<string, number>();
function firstRefusalThisMinute(key: string): boolean {
  const now = Date.now();
  if ((recentRefusals.get(key) ?? 0) > now - 60_000) return false;
  if (recentRefusals.size >= 10_000) recentRefusals.clear();
  recentRefusals.set(key, now);
  return true;
}

/** Records a failed sign-in in the audit log and passes the error on. */
function failed(req: Request, username: string | null, method: string, e: unknown): never {
  if (isAppError(e) && (e.code === 'not_signed_in' || e.code === 'rate_limited')) {
    const limited = e.code === 'rate_limited';
    const reason = limited ? 'rate_limited' : method === 'password' ? 'wrong_password' : method === 'code' ? 'wrong_code' : 'passkey_failed';
    if (!limited || firstRefusalThisMinute(`${username ?? ''}|${req.ip}`)) {
      req.audit('sign_in.failed', { username: username?.slice(0, 200) || null, detail: { method, reason } });
    }
  }
  throw e;
}

/** /admin/api/login (password, then a code when the account has one), /login/passkey..., /logout, /me */
export function signInRouter(auth: SignInService, passkeys: Passkeys, config: Config): Router {
  const r = Router();
  const rpOf = (req: Request) => relyingParty(config.publicUrl, { protocol: req.protocol, host: req.host });

  /** The session now holds the user: activity, last_login, the audit entry, the answer. */
  const finish = async (req: Request, user: AuthUser, method: string, extra: Record<string, unknown> = {}) => {
    await startSession(req, user.id);
    await auth.signedIn(user);
    req.user = user;
    req.audit('sign_in', { detail: { method, ...extra } });
  };

  r.post('/login', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    let user: AuthUser;
    try {
      user = await auth.signIn(username, password, req.ip);
    } catch (e) {
      failed(req, username, 'password', e);
    }
    const next = await auth.nextStep(user);
    if (next === 'code') {
      await startPending(req, user);
      return res.json({ success: true, needs_code: true });
    }
    if (next === 'passkey') return res.json({ success: true, needs_passkey: true });
    await finish(req, user, 'password', next === 'setup' ? { setup_required: true } : {});
    res.json({ success: true, ...who(user), ...(next === 'setup' ? { needs_setup: true } : {}) });
  });

  r.post('/login/code', async (req, res) => {
    const pending = req.session?.pending;
    if (!pending || pending.until < Date.now()) {
      throw new AppError('not_signed_in', 'errors.security.code_timed_out', undefined, { expired: true });
    }
    let result;
    try {
      result = await auth.checkCode(pending, (req.body as Record<string, unknown> | undefined)?.code, req.ip);
    } catch (e) {
      failed(req, pending.username, 'code', e);
    }
    const { user, check } = result;
    await finish(req, user, check.recovery ? 'password+recovery_code' : 'password+code', check.recovery ? { recovery_codes_left: check.left } : {});
    res.json({ success: true, ...who(user), ...(check.recovery ? { recovery_codes_left: check.left } : {}) });
  });

  // Signing in with a passkey needs no username: the browser offers this site's passkeys.
  r.post('/login/passkey/options', async (req, res) => {
    const { rp, support } = rpOf(req);
    if (!rp) return res.json({ success: true, passkey_support: support, options: null });
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, passkey_support: support, options: await passkeys.authenticationOptions(rp, addressKey(req.ip)) });
  });

  r.post('/login/passkey', async (req, res) => {
    const { rp } = rpOf(req);
    if (!rp) throw new AppError('invalid_input', 'errors.security.passkey_unavailable');
    let result;
    try {
      result = await auth.passkeyUser(() => passkeys.authenticate(rp, (req.body as Record<string, unknown> | undefined)?.response), req.ip);
    } catch (e) {
      failed(req, null, 'passkey', e);
    }
    await finish(req, result.user, 'passkey', { passkey: result.passkey });
    res.json({ success: true, ...who(result.user) });
  });

  r.get('/login/passkey/support', (req, res) => {
    res.json({ success: true, passkey_support: rpOf(req).support });
  });

  r.post('/logout', (req, res, next) => {
    if (!req.session) return res.json({ success: true });
    if (req.user || req.setupUser) req.audit('sign_out');
    req.session.destroy((err) => {
      if (err) return next(err);
      res.clearCookie('wedding.sid', { path: '/' });
      res.json({ success: true });
    });
  });

  r.get('/me', requireAccount, (req, res) => {
    const user = (req.user ?? req.setupUser)!;
    res.json({ success: true, ...who(user), ...(req.setupUser ? { setup_required: true } : {}) });
  });

  return r;
}
