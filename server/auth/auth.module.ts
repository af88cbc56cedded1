import type { Config } from '../config.js';
import type { Module } from '../http/module.js';
import type { UsersService } from '../users/users.service.js';
import { authRouter } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import type { FailureLimiter } from './rate-limit.js';
import type { SqliteSessionStore } from './session-store.js';

export interface AuthDeps {
  /** Part of the composition's uniform call; sign-in reads nothing from it today. */
  config: Config;
  users: UsersService;
  /** Sessions are created and ended through express-session (app.ts), which writes to this store. */
  sessions: SqliteSessionStore;
  /** Tests may pass one with a short window. */
  limiter?: FailureLimiter;
}

/** Sign-in, sign-out and "who am I": /admin/api/login, /logout, /me. */
export function createAuthModule({ users, limiter }: AuthDeps): Module {
  return { name: 'auth', adminApi: [authRouter(new AuthService(users, limiter))] };
}
