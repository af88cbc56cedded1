import type { Router } from 'express';
import type { FirstScreenFor } from './index-page.js';

/**
 * One server feature, as app.ts mounts it. Each feature folder has one factory
 * (`create<Feature>Module(deps)`, in `<feature>.module.ts`) that takes its dependencies
 * explicitly and returns this.
 */
export interface Module {
  name: string;
  /** Mounted under /api (public; JSON bodies parsed; the session user is loaded). */
  publicApi?: Router[];
  /** Mounted under /admin/api (session user loaded, Origin checked, JSON parsed; routes check permissions). */
  adminApi?: Router[];
  /** Mounted at the root before the client fallback (e.g. /media/...). */
  root?: Router[];
  /** What a page of the client shows before its scripts have run (http/index-page.ts). */
  firstScreen?: FirstScreenFor;
  /** After the server listens. */
  start?(): void | Promise<void>;
  /** As shutdown begins, before open requests are waited for: end long-lived responses here. */
  closing?(): void;
  /** On shutdown, before the database closes. */
  stop?(): void | Promise<void>;
}
