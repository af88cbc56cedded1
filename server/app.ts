import fs from 'node:fs';
import path from 'node:path';
import express, { Router, type Express } from 'express';
import session from 'express-session';
import { authRouter } from './auth/auth.routes.js';
import { loadUser, sameOriginOnly } from './auth/middleware.js';
import type { AppContext } from './context.js';
import { apiNotFound, errorHandler } from './http/errors.js';
import { clientDir } from './paths.js';
import { adminSettingsRouter, publicSettingsRouter } from './settings/settings.routes.js';
import type { SettingsService } from './settings/settings.service.js';
import { usersRouter } from './users/users.routes.js';
import type { UsersService } from './users/users.service.js';

export interface Services {
  users: UsersService;
  settings: SettingsService;
  /** Routers of later areas (media, dashboard, wall, export), mounted by server.ts. */
  publicApi?: Router[];
  adminApi?: Router[];
  /** Routers outside /api (media files). */
  root?: Router[];
}

export const SESSION_COOKIE = 'wedding.sid';
const SESSION_MAX_AGE = 14 * 24 * 60 * 60 * 1000;

/** The Express app; it never listens (tests and main.ts do). */
export function createApp(ctx: AppContext, services: Services, opts: { ready?: () => boolean } = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', ctx.config.trustProxy);
  app.use((_req, res, next) => {
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'SAMEORIGIN',
    });
    next();
  });

  app.get('/api/health', (_req, res) => {
    if (opts.ready && !opts.ready()) {
      res.status(503).json({ success: false, status: 'starting', error: 'The server is starting.' });
      return;
    }
    res.json({ status: 'ok' });
  });

  // Built client assets have hashed names: cache them for a year, before any session work.
  const client = clientDir();
  app.use('/assets', express.static(path.join(client, 'assets'), { immutable: true, maxAge: '365d', index: false }));

  app.use(
    session({
      name: SESSION_COOKIE,
      secret: ctx.sessionSecret,
      store: ctx.sessions,
      resave: false,
      saveUninitialized: false,
      rolling: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_MAX_AGE, path: '/' },
    }),
  );
  app.use(loadUser(ctx.db));

  const json = express.json({ limit: '1mb' });

  const api = Router();
  api.use(json);
  api.use(publicSettingsRouter(services.settings));
  for (const r of services.publicApi ?? []) api.use(r);
  api.use(apiNotFound);
  app.use('/api', api);

  const admin = Router();
  admin.use(sameOriginOnly);
  admin.use(json);
  admin.use(authRouter(ctx, services.users.repo));
  admin.use('/users', usersRouter(services.users));
  admin.use(adminSettingsRouter(services.settings));
  for (const r of services.adminApi ?? []) admin.use(r);
  admin.use(apiNotFound);
  app.use('/admin/api', admin);

  for (const r of services.root ?? []) app.use(r);

  // Every other GET is the single-page client; it redirects unknown routes to /.
  const indexFile = path.join(client, 'index.html');
  app.get(/.*/, (_req, res, next) => {
    if (!fs.existsSync(indexFile)) return next();
    res.set('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });

  app.use(errorHandler);
  return app;
}
