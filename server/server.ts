import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { hashPassword } from './auth/passwords.js';
import { SqliteSessionStore } from './auth/session-store.js';
import type { Config } from './config.js';
import { dataPaths, type AppContext } from './context.js';
import { migrateToLatest } from './db/migrate.js';
import { createKysely, openSqlite } from './db/open.js';
import { log } from './log.js';
import { SettingsService } from './settings/settings.service.js';
import { UsersService } from './users/users.service.js';
import type { Area, Shared } from './area.js';
import { EventBus } from './events/bus.js';
import { createEventsArea } from './events/events.area.js';
import { createExportArea } from './export/export.area.js';
import { createPhotosArea } from './photos/photos.area.js';
import { createProcessing } from './processing/index.js';
import { createUploadsArea } from './uploads/uploads.area.js';

export interface RunningServer {
  ctx: AppContext;
  shared: Shared;
  url: string;
  port: number;
  server: http.Server;
  /** Stops accepting, lets requests finish (bounded), closes the database. */
  close(graceMs?: number): Promise<void>;
}

/** Reads SESSION_SECRET or the one generated on first start and kept in DATA_DIR. */
function sessionSecret(config: Config): string {
  if (config.sessionSecret) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(32).toString('base64url');
    fs.writeFileSync(file, secret + '\n', { mode: 0o600 });
    return secret;
  }
}

/** When there are no users, creates the first admin; a generated password is printed once. */
async function ensureFirstAdmin(ctx: AppContext, users: UsersService): Promise<void> {
  if ((await users.repo.count()) > 0) return;
  const password = ctx.config.adminPassword ?? crypto.randomBytes(12).toString('base64url');
  await users.repo.insert({
    username: ctx.config.adminUsername,
    email: `${ctx.config.adminUsername}@localhost`,
    full_name: 'Administrator',
    role: 'admin',
    is_active: 1,
    password_hash: await hashPassword(password),
    created_at: new Date().toISOString(),
    last_login: null,
  });
  if (ctx.config.adminPassword) {
    log.info(`Created the first admin "${ctx.config.adminUsername}" with the password from ADMIN_PASSWORD`);
  } else {
    const bar = '='.repeat(64);
    process.stdout.write(
      `\n${bar}\n  First admin created. Sign in at /admin/login with\n    username: ${ctx.config.adminUsername}\n    password: ${password}\n  This password is shown only once: write it down now.\n${bar}\n\n`,
    );
  }
}

export async function startServer(config: Config): Promise<RunningServer> {
  const paths = dataPaths(config.dataDir);
  for (const dir of [paths.root, paths.originals, paths.derived, paths.incoming]) fs.mkdirSync(dir, { recursive: true });

  const sqlite = openSqlite(paths.database);
  const db = createKysely(sqlite);
  let ready = false;
  const applied = await migrateToLatest(db);
  if (applied.length) log.info(`Database migrated: ${applied.join(', ')}`);

  const sessions = new SqliteSessionStore(sqlite);
  const ctx: AppContext = { config, paths, sqlite, db, sessions, sessionSecret: sessionSecret(config) };
  const users = new UsersService(db, sessions);
  const settings = new SettingsService(db);
  await settings.seed({ coupleNames: config.coupleNames, uploadsEnabled: config.uploadsEnabled });
  await ensureFirstAdmin(ctx, users);

  const bus = new EventBus(db);
  const base = { ctx, settings, users, bus };
  const shared: Shared = { ...base, processing: createProcessing(base) };
  const areas: Area[] = [createUploadsArea(shared), createPhotosArea(shared), createEventsArea(shared), createExportArea(shared)];

  const app = createApp(
    ctx,
    {
      users,
      settings,
      publicApi: areas.flatMap((a) => a.publicApi ?? []),
      adminApi: areas.flatMap((a) => a.adminApi ?? []),
      root: areas.flatMap((a) => a.root ?? []),
    },
    { ready: () => ready },
  );
  const server = http.createServer(app);
  // Uploads over slow phone connections: no request timeout beyond the client's own 2 minutes per chunk.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  shared.processing.start();
  for (const a of areas) await a.start?.();
  ready = true;
  const port = (server.address() as AddressInfo).port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000): Promise<void> => {
    closing ??= (async () => {
      ready = false;
      for (const a of areas) a.closing?.();
      await new Promise<void>((resolve) => {
        // Keep-alive connections whose last request finishes after this point would otherwise
        // hold the close until the grace period ends: drop each as soon as it falls idle.
        const sweep = setInterval(() => server.closeIdleConnections(), 200);
        const timer = setTimeout(() => {
          clearInterval(sweep);
          server.closeAllConnections();
          resolve();
        }, graceMs);
        timer.unref();
        sweep.unref();
        server.close(() => {
          clearTimeout(timer);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      for (const a of areas) await a.stop?.();
      await shared.processing.stop();
      sessions.close();
      await db.destroy(); // closes the better-sqlite3 handle
    })();
    return closing;
  };

  return { ctx, shared, url, port, server, close };
}
