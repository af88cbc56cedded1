import type { Config } from '../config.js';
import type { Module } from '../http/module.js';
import type { SecurityService } from '../security/security.service.js';
import type { UsersService } from '../users/users.service.js';
import { authRouter } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import type { FailureLimiter } from './rate-limit.js';
import type { SqliteSessionStore } from './session-store.js';

export interface AuthDeps {
  /** PUBLIC_URL: the passkeys' relying party. */
  config: Config;
  users: UsersService;
  security: SecurityService;
  /** Sessions are created and ended through express-session (app.ts), which writes to this store. */
  sessions: SqliteSessionStore;
  /** Shared with the security routes (wrong codes count there too); tests may pass one with a short window. */
  limiter?: FailureLimiter;
}

/** Sign-in (password, code, passkey), sign-out and "who am I": /admin/api/login..., /logout, /me. */
export function createAuthModule({ config, users, security, limiter }: AuthDeps): Module {
  return { name: 'auth', adminApi: [authRouter(new AuthService(users, security, limiter), security.passkeys, config)] };
}
