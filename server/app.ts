import path from 'node:path';
import express, { Router, type Express } from 'express';
import session from 'express-session';
import type { AuditLog } from './audit/audit-log.js';
import { auditRequests } from './audit/audit.middleware.js';
import { loadUser, sameOriginOnly } from './auth/auth.middleware.js';
import { SESSION_LIFETIME_MS, type SqliteSessionStore } from './auth/session-store.js';
import type { Config } from './config.js';
import { apiNotFound, errorHandler } from './http/errors.js';
import { languageOf } from './http/language.js';
import { translate } from './i18n/messages.js';
import { cookieValue } from './i18n/negotiate.js';
import { endIdleBodies } from './http/idle-body.js';
import { indexPage } from './http/index-page.js';
import { precompressedAssets } from './http/precompressed.js';
import type { Module } from './http/module.js';
import { afterBodyTiming } from './http/server-timing.js';
import { clientDir } from './paths.js';
import { pageHead } from './settings/page-head.js';
import type { UsersService } from './users/users.service.js';
import type { WeddingSettings } from './settings/settings.defaults.js';

export interface AppDeps {
  config: Config;
  sessionSecret: string;
  sessions: SqliteSessionStore;
  /** Resolves the session's user on every request. */
  users: UsersService;
  /** Every feature, mounted in this order. */
  modules: Module[];
  /** Every request gets req.audit(...), recording to this log. */
  auditLog: AuditLog;
  /** Whether a signed-in account must set up a passkey or codes before anything else. */
  mustSetUp?: (userId: number) => Promise<boolean>;
  /** False while starting and once shutdown begins: /api/health then answers 503. */
  ready?: () => boolean;
  /** The wedding's default_language (settings), for requests that name no language of their own. */
  defaultLanguage?: () => string;
  /** The settings as cached now: pages are served with the couple's names and look. */
  look?: () => WeddingSettings;
}

export const SESSION_COOKIE = 'wedding.sid';

/** The Express app; it never listens (server.ts does). */
export function createApp({ config, sessionSecret, sessions, users, modules, auditLog, mustSetUp, ready, defaultLanguage, look }: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  // Read by http/language.ts wherever a request's language is needed (answers, error sentences, pages).
  app.locals.defaultLanguage = defaultLanguage ?? (() => 'en');
  // `true` means the one tunnel or proxy in front: trusting every hop would let a client pick its
  // own address in X-Forwarded-For and so reset the per-address sign-in limit.
  app.set('trust proxy', config.trustProxy === true ? 1 : config.trustProxy);
  app.use((_req, res, next) => {
    res.set({
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'X-Frame-Options': 'SAMEORIGIN',
    });
    next();
  });

  app.use(endIdleBodies(config.bodyIdleTimeoutMs));
  app.use(['/api/upload', '/api/upload-chunk'], afterBodyTiming);

  app.get('/api/health', (req, res) => {
    if (ready && !ready()) {
      res.status(503).set('Retry-After', '5').json({ success: false, status: 'starting', error: translate(languageOf(req), 'errors.starting'), code: 'unavailable' });
      return;
    }
    res.json({ status: 'ok' });
  });

  // Built client assets have hashed names: cache them for a year, before any session work.
  const client = clientDir();
  const assets = { immutable: true, maxAge: '365d' };
  app.use('/assets', precompressedAssets(path.join(client, 'assets'), assets), express.static(path.join(client, 'assets'), { ...assets, index: false }));

  const withSession = session({
      name: SESSION_COOKIE,
      secret: sessionSecret,
      store: sessions,
      resave: false,
      saveUninitialized: false,
      rolling: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_LIFETIME_MS, path: '/' },
  });
  // A read without the session cookie has no session to load, and no GET writes one (signing in
  // and the second-factor steps are POSTs): it skips making a fresh, never-saved session (an id
  // from the random source and its hash each time), which every guest's gallery page paid.
  app.use((req, res, next) => ((req.method === 'GET' || req.method === 'HEAD') && cookieValue(req.headers.cookie, SESSION_COOKIE) === undefined ? next() : withSession(req, res, next)));
  app.use(loadUser(users, mustSetUp));
  app.use(auditRequests(auditLog));

  const json = express.json({ limit: '1mb' });

  const api = Router();
  api.use(json);
  for (const m of modules) for (const r of m.publicApi ?? []) api.use(r);
  api.use(apiNotFound);
  app.use('/api', api);

  const admin = Router();
  admin.use(sameOriginOnly);
  admin.use(json);
  for (const m of modules) for (const r of m.adminApi ?? []) admin.use(r);
  admin.use(apiNotFound);
  app.use('/admin/api', admin);

  for (const m of modules) for (const r of m.root ?? []) app.use(r);

  // Every other GET is the single-page client, in the page's language; it redirects unknown routes to /.
  const firstScreens = modules.flatMap((m) => (m.firstScreen ? [m.firstScreen] : []));
  app.get(/.*/, indexPage(path.join(client, 'index.html'), (page, language) => pageHead(page, language, look?.()), firstScreens));

  app.use(errorHandler);
  return app;
}
