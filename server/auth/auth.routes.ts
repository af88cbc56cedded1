import { Router, type Request } from 'express';
import { recordActivity } from '../activity/activity.repo.js';
import type { AppContext } from '../context.js';
import { HttpError, badRequest } from '../http/errors.js';
import type { UsersRepo } from '../users/users.repo.js';
import { requireAuth } from './middleware.js';
import { burnVerify, verifyPassword } from './passwords.js';
import { permissionsFor } from './permissions.js';
import { FailureLimiter } from './rate-limit.js';

const INVALID = 'Invalid username or password';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}
function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** /admin/api/login, /logout, /me */
export function authRouter(ctx: AppContext, users: UsersRepo, limiter = new FailureLimiter()): Router {
  const r = Router();

  r.post('/login', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (!username || !password) throw badRequest('Username and password are required.');

    const keys = [`user:${username.toLowerCase()}`, `ip:${req.ip}`];
    const wait = limiter.blockedFor(keys);
    if (wait > 0) {
      res.set('Retry-After', String(wait));
      throw new HttpError(429, `Too many failed sign-in attempts. Please try again in ${Math.ceil(wait / 60)} minutes.`);
    }

    const user = await users.byUsername(username);
    const ok = user ? await verifyPassword(user.password_hash, password) : (await burnVerify(password), false);
    if (!user || !ok || user.is_active !== 1) {
      limiter.fail(keys);
      throw new HttpError(401, INVALID);
    }

    await regenerate(req); // a fresh id on sign-in: no session fixation
    req.session.userId = user.id;
    await save(req);
    const now = new Date().toISOString();
    await ctx.db.updateTable('users').set({ last_login: now }).where('id', '=', user.id).execute();
    await recordActivity(ctx.db, 'login', `${user.full_name || user.username} signed in`, user.username);
    res.json({
      success: true,
      user: { id: user.id, username: user.username, full_name: user.full_name, role: user.role },
      user_permissions: permissionsFor(user.role),
    });
  });

  r.post('/logout', (req, res, next) => {
    if (!req.session) return res.json({ success: true });
    req.session.destroy((err) => {
      if (err) return next(err);
      res.clearCookie('wedding.sid', { path: '/' });
      res.json({ success: true });
    });
  });

  r.get('/me', requireAuth, (req, res) => {
    const { permissions, ...user } = req.user!;
    res.json({ success: true, user, user_permissions: permissions });
  });

  return r;
}
