import type { Router } from 'express';
import type { AppContext } from './context.js';
import type { EventBus } from './events/bus.js';
import type { Processing } from './processing/index.js';
import type { SettingsService } from './settings/settings.service.js';
import type { UsersService } from './users/users.service.js';

/** What every area of the server can use; built once in server.ts. */
export interface Shared {
  ctx: AppContext;
  settings: SettingsService;
  users: UsersService;
  bus: EventBus;
  processing: Processing;
}

/** An area of the server (uploads, photos, events, export): its routers and lifecycle. */
export interface Area {
  /** Mounted under /api (public; JSON body parsing already applied). */
  publicApi?: Router[];
  /** Mounted under /admin/api (session user loaded, Origin checked, JSON parsed; check permissions yourself). */
  adminApi?: Router[];
  /** Mounted at the root, before the client fallback (e.g. /media/...). Session user is loaded. */
  root?: Router[];
  /** Called after the server listens. */
  start?(): void | Promise<void>;
  /** Called as shutdown begins, before open requests are waited for: end long-lived responses (event streams) here. */
  closing?(): void;
  /** Called on shutdown before the database closes. */
  stop?(): void | Promise<void>;
}
