import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { AuditLog } from './audit/audit-log.js';
import { createAuditModule } from './audit/audit.module.js';
import { createCameraModule } from './camera/camera.module.js';
import { Shots } from './camera/shots.js';
import { FailureLimiter } from './auth/rate-limit.js';
import { recoverInterruptedRestore } from './backup/swap.js';
import { SqliteSessionStore } from './auth/session-store.js';
import type { Config } from './config.js';
import { dataPaths, type AppContext, type Originals } from './context.js';
import { createDashboardModule } from './dashboard/dashboard.module.js';
import type { DiskUsage } from './dashboard/disk-usage.js';
import { migrateToLatest } from './db/migrate.js';
import { createKysely, openSqlite } from './db/open.js';
import { DatabaseWriter } from './db/writer.js';
import { EventBus } from './events/bus.js';
import { createEventsModule } from './events/events.module.js';
import { createExportModule } from './export/export.module.js';
import { createFacesModule } from './faces/faces.module.js';
import type { FacesService } from './faces/faces.service.js';
import { createGuestbookModule } from './guestbook/guestbook.module.js';
import { createGuestsModule } from './guests/guests.module.js';
import { createHeartsModule } from './hearts/hearts.module.js';
import { createKeepsakesModule } from './keepsakes/keepsakes.module.js';
import type { Module } from './http/module.js';
import { listen } from './http/listen.js';
import { log } from './log.js';
import { createPhotosModule } from './photos/photos.module.js';
import type { Clock } from './notifications/clock.js';
import { createNotificationsModule } from './notifications/notifications.module.js';
import { createOffsiteModule } from './offsite/offsite.module.js';
import { OffsiteService } from './offsite/offsite.service.js';
import { MediaServing, type ServingOptions } from './offsite/serving.js';
import { NotificationsService } from './notifications/notifications.service.js';
import { createProcessing, type Processing } from './processing/processing.service.js';
import { createQrModule } from './qr/qr.module.js';
import { createSecurityModule } from './security/security.module.js';
import { SecurityService } from './security/security.service.js';
import { createSettingsModule } from './settings/settings.module.js';
import { createSignInModule } from './sign-in/sign-in.module.js';
import { createSimilarModule } from './similar/similar.module.js';
import { SettingsService } from './settings/settings.service.js';
import { PhotosRepo } from './photos/photos.repo.js';
import { durableStorage } from './storage/durable.js';
import { createStorageGuard, type StorageGuard } from './storage/storage.js';
import { createUploadsModule } from './uploads/uploads.module.js';
import { createUsersModule } from './users/users.module.js';
import { createWallModule } from './wall/wall.module.js';
import { UsersService } from './users/users.service.js';

export { LISTEN_BACKLOG } from './http/listen.js';

/** The services tests and CLIs reach into; routes get theirs through their module's factory. */
export interface Services {
  settings: SettingsService;
  users: UsersService;
  bus: EventBus;
  processing: Processing;
  storage: StorageGuard;
  disk: DiskUsage;
  faces: FacesService;
  auditLog: AuditLog;
  security: SecurityService;
  notifications: NotificationsService;
  offsite: OffsiteService;
  media: MediaServing;
}

/** What tests may put in place of the real thing. */
export interface ServerOverrides {
  /** The notifications' clock (the 15-minute rule without waiting 15 minutes). */
  clock?: Clock;
  /** How long one try of a notification may take. */
  notifySendTimeoutMs?: number;
  /** The sign-in limiter (a short window). */
  limiter?: FailureLimiter;
  /** How often the off-site copy looks for work when nothing woke it. */
  offsitePollMs?: number;
  /** The off-site copy's longest back-off (a minute) and its database copy interval (5 minutes). */
  offsiteMaxBackoffMs?: number;
  offsiteDbCopyEveryMs?: number;
  /** How often the disk is looked at for room when originals may leave it (30 s), and how long one just read stays (a minute). */
  offsiteEvictEveryMs?: number;
  offsiteHoldMs?: number;
  /** The off-site copy's clock (its 15-minute rule without waiting 15 minutes). */
  offsiteNow?: () => number;
  /** The photo booth's clock (its QR codes open a picture for 7 days). */
  boothNow?: () => number;
  /** The bucket's signed URLs: their clock and lifetimes (6 h signed, given out for 5). */
  offsiteUrls?: ServingOptions;
}

export interface RunningServer {
  /** Infrastructure (config, paths, database handles, sessions): for tests and CLIs only. */
  ctx: AppContext;
  services: Services;
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

/** Tells the operator how to sign in when the first admin was just created. */
function announceFirstAdmin(config: Config, first: { created: boolean; generatedPassword?: string }): void {
  if (!first.created) return;
  if (!first.generatedPassword) {
    log.info(`Created the first admin "${config.adminUsername}" with the password from ADMIN_PASSWORD`);
    return;
  }
  const bar = '='.repeat(64);
  process.stdout.write(
    `\n${bar}\n  First admin created. Sign in at /admin/login with\n    username: ${config.adminUsername}\n    password: ${first.generatedPassword}\n  This password is shown only once: write it down now.\n${bar}\n\n`,
  );
}

/** The composition root: builds every service and module once and hands each its dependencies. */
export async function startServer(config: Config, overrides: ServerOverrides = {}): Promise<RunningServer> {
  const paths = dataPaths(config.dataDir);
  // A restore killed half way through replacing the site: the old site comes back whole.
  if (recoverInterruptedRestore(config.dataDir) > 0) log.warn('An interrupted restore was undone: the site is as it was before it');
  for (const dir of [paths.root, paths.originals, paths.derived, paths.incoming, paths.guestbook]) fs.mkdirSync(dir, { recursive: true });

  const sqlite = openSqlite(paths.database);
  // Migrations run first, on this connection alone. From then on it only reads (query_only):
  // every write goes to the writer thread's connection, off the event loop (db/writer.ts).
  const applied = await migrateToLatest(sqlite);
  if (applied.length) log.info(`Database migrated: ${applied.join(', ')}`);
  sqlite.exec('PRAGMA query_only = ON');
  const writer = new DatabaseWriter({ file: paths.database });
  const db = createKysely(sqlite, writer);
  let notifications: NotificationsService | undefined;
  const { storage, disk } = createStorageGuard({ config, paths, db, sqlite, writer, onRefused: () => notifications?.notifier.uploadRefused() });
  let ready = false;

  const sessions = new SqliteSessionStore(sqlite, { writer });
  const ctx: AppContext = { config, paths, sqlite, db, sessions, sessionSecret: sessionSecret(config) };
  const photoRows = new PhotosRepo(db);
  // Visible, processed and with a display copy: what the wall can show (an image of it can be the cover).
  const isShowable = (row: Awaited<ReturnType<PhotosRepo['get']>>) => !!row && row.is_visible === 1 && row.status === 'complete' && !!row.display_path;
  const settings = new SettingsService(db, async (id) => {
    const row = await photoRows.get(id);
    return isShowable(row) && row!.content_type.startsWith('image/');
  });
  await settings.seed({ coupleNames: config.coupleNames, uploadsEnabled: config.uploadsEnabled });
  const users = new UsersService(db, sessions);
  announceFirstAdmin(config, await users.ensureFirstAdmin(config.adminUsername, config.adminPassword));

  const bus = new EventBus(db);
  // Every reader of an original goes through the off-site copy, which fetches back what the disk gave up.
  const originals: Originals = { ensure: (photo) => offsite.originals.ensure(photo), reachable: (scope) => offsite.originals.reachable(scope) };
  const processing = createProcessing({ config, paths, db, photos: photoRows, originals });
  const facesModule = createFacesModule({ db, paths, settings, bus, faceWorkers: config.faceWorkers, faceNice: config.faceNice, originals });
  const auditLog = new AuditLog(db);
  const security = new SecurityService(db, settings);
  const limiter = overrides.limiter ?? new FailureLimiter();
  notifications = new NotificationsService({
    db,
    settings,
    publicUrl: config.publicUrl,
    clock: overrides.clock,
    sendTimeoutMs: overrides.notifySendTimeoutMs,
    storage: { used: () => disk.used(), limit: () => disk.limit(config.storageLimitBytes) },
  });
  const offsite = new OffsiteService({
    db,
    sqlite,
    paths,
    env: config.offsite,
    pollMs: overrides.offsitePollMs,
    maxBackoffMs: overrides.offsiteMaxBackoffMs,
    dbCopyEveryMs: overrides.offsiteDbCopyEveryMs,
    now: overrides.offsiteNow,
    evictEveryMs: overrides.offsiteEvictEveryMs,
    holdMs: overrides.offsiteHoldMs,
    space: { minFreeBytes: config.minFreeBytes, limitBytes: config.storageLimitBytes, used: () => disk.used() },
    onFailing: (e) => notifications?.notifier.offsiteFailing((lang) => offsite.describe(e, lang)),
  });
  // S3_SERVE: visible photos' derivatives from the bucket once it holds them.
  const media = new MediaServing(offsite, overrides.offsiteUrls);
  // One set of syncs for every write a guest is told is stored.
  const durable = durableStorage(paths);
  const shots = new Shots(db, settings);
  const uploadsModule = createUploadsModule({ config, paths, db, settings, processing, storage, durable, shots });
  const modules: Module[] = [
    createNotificationsModule({ notifications, processing }),
    createSignInModule({ config, users, security, sessions, limiter }),
    createSecurityModule({ security, settings, config, limiter }),
    createAuditModule({ auditLog }),
    createUsersModule({ users }),
    createSettingsModule({ settings, paths, guard: (body, user) => security.checkRequireTwoStep(body.require_two_step === true, user.id) }),
    uploadsModule,
    createCameraModule({ shots, db, uploads: uploadsModule.uploads, originals, now: overrides.boothNow }),
    createPhotosModule({ config, paths, db, sqlite, bus, processing, settings, media, originals }),
    createDashboardModule({ config, disk, db, users, processing, settings, notifyStates: () => notifications!.states(), offsite }),
    createEventsModule({ bus, settings, maxStreams: config.maxEventStreams }),
    createQrModule({ config }),
    createExportModule({ db, paths, settings, originals }),
    createGuestsModule({ db, paths, bus }),
    facesModule,
    createHeartsModule({ db }),
    createWallModule({ settings, bus, sqlite, showable: async (id) => isShowable(await photoRows.get(id)) }),
    createOffsiteModule({ offsite }),
    createSimilarModule({ db, processing }),
    createKeepsakesModule({ db, paths, settings, processing, originals, publicUrl: config.publicUrl, ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }),
    createGuestbookModule({
      db,
      paths,
      bus,
      settings,
      voiceNotes: processing.voiceNotes,
      storage,
      durable,
      onWaiting: (count) => notifications?.notifier.waiting('messages', count),
    }),
  ];

  await settings.get(); // warm: every request's language falls back on default_language
  const app = createApp({
    config,
    sessionSecret: ctx.sessionSecret,
    sessions,
    users,
    modules,
    auditLog,
    mustSetUp: (id) => security.setupRequired(id),
    ready: () => ready,
    defaultLanguage: () => settings.defaultLanguage(),
    look: () => settings.peek(),
  });
  const server = http.createServer(app);
  // Uploads over slow phone connections: no request timeout beyond the client's own 2 minutes per chunk.
  server.requestTimeout = 0;
  server.headersTimeout = 60_000;
  server.keepAliveTimeout = 65_000;

  const listening = await listen(server, config.port, config.host);
  processing.start();
  for (const m of modules) await m.start?.();
  ready = true;
  const port = (server.address() as AddressInfo).port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url = `http://${shownHost}:${port}`;

  let closing: Promise<void> | undefined;
  const close = (graceMs = 10_000): Promise<void> => {
    closing ??= (async () => {
      ready = false;
      for (const m of modules) m.closing?.();
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
        // Every listening socket stops taking connections; done once each one's connections have ended.
        void Promise.all([new Promise<void>((r) => server.close(() => r())), listening.close()]).then(() => {
          clearTimeout(timer);
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
      for (const m of modules) await m.stop?.();
      await processing.stop();
      sessions.close();
      await db.destroy(); // closes the reading connection, then the writer thread's
    })();
    return closing;
  };

  return { ctx, services: { settings, users, bus, processing, storage, disk, faces: facesModule.faces, auditLog, security, notifications, offsite, media }, url, port, server, close };
}
