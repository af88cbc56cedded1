import { Router, type Request } from 'express';
import { requireAuth } from './auth.middleware.js';
import type { AuthService } from './auth.service.js';

function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}
function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** /admin/api/login, /logout, /me */
export function authRouter(auth: AuthService): Router {
  const r = Router();

  r.post('/login', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const username = typeof body.username === 'string' ? body.username.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const user = await auth.signIn(username, password, req.ip);

    await regenerate(req); // a fresh id on sign-in: no session fixation
    req.session.userId = user.id;
    req.session.signedInAt = Date.now();
    await save(req);
    await auth.signedIn(user);
    const { permissions, ...shown } = user;
    res.json({ success: true, user: shown, user_permissions: permissions });
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
