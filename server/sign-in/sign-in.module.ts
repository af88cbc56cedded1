import type { FailureLimiter } from '../auth/rate-limit.js';
import type { SqliteSessionStore } from '../auth/session-store.js';
import type { Config } from '../config.js';
import type { Module } from '../http/module.js';
import type { SecurityService } from '../security/security.service.js';
import type { UsersService } from '../users/users.service.js';
import { signInRouter } from './sign-in.routes.js';
import { SignInService } from './sign-in.service.js';

export interface SignInDeps {
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
export function createSignInModule({ config, users, security, limiter }: SignInDeps): Module {
  return { name: 'sign-in', adminApi: [signInRouter(new SignInService(users, security, limiter), security.passkeys, config)] };
}
