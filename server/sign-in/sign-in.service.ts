import { LOGIN_FIELD_MAX } from '../../common/rules.js';
import type { AuthUser } from '../auth/permissions.js';
import { FailureLimiter } from '../auth/rate-limit.js';
import { AppError, invalid } from '../errors.js';
import type { CodeCheck, SecurityService } from '../security/security.service.js';
import type { UsersService } from '../users/users.service.js';

const INVALID = 'errors.auth.invalid_credentials';

const limitKeys = (username: string, clientAddress: string | undefined) => [`user:${username.toLowerCase()}`, `ip:${clientAddress}`];

/**
 * Sign-in decisions: required fields, the failure limit per username and client address (wrong
 * passwords, wrong codes and failed passkeys all count), the password and code checks.
 */
export class SignInService {
  constructor(
    private readonly users: UsersService,
    private readonly security: SecurityService,
    private readonly limiter = new FailureLimiter(),
  ) {}

  /**
   * Counts an attempt for `keys` before anything is checked, so parallel guesses cannot all pass
   * the limit; rate_limited when one of them is blocked.
   */
  private attempt(keys: string[]): void {
    const wait = this.limiter.attempt(keys);
    if (wait > 0) {
      throw new AppError('rate_limited', 'errors.auth.too_many_attempts', { minutes: Math.ceil(wait / 60) }, { retry_after: wait });
    }
  }

  /** The user these credentials sign in, or an AppError (invalid_input, rate_limited, not_signed_in). */
  async signIn(username: string, password: string, clientAddress: string | undefined): Promise<AuthUser> {
    if (!username || !password) throw invalid('errors.auth.fields_required');
    // Checked before any hashing or lookup: a megabyte "username" costs nothing and is never a map key.
    if (username.length > LOGIN_FIELD_MAX || password.length > LOGIN_FIELD_MAX) {
      throw invalid('errors.auth.fields_too_long', { max: LOGIN_FIELD_MAX });
    }
    const keys = limitKeys(username, clientAddress);
    this.attempt(keys);
    const user = await this.users.verifyCredentials(username, password);
    if (!user) throw new AppError('not_signed_in', INVALID);
    this.limiter.forgive(keys);
    return user;
  }

  /** What a right password still needs before the account is signed in. */
  nextStep(user: AuthUser) {
    return this.security.afterPassword(user.id);
  }

  /**
   * The code step: an authenticator or recovery code for the account whose password was right.
   * A wrong code counts toward the same limit as a wrong password.
   */
  async checkCode(pending: { userId: number; username: string }, code: unknown, clientAddress: string | undefined): Promise<{ user: AuthUser; check: CodeCheck & { ok: true } }> {
    if (typeof code !== 'string' || !code.trim()) throw invalid('errors.security.code_missing');
    const keys = limitKeys(pending.username, clientAddress);
    this.attempt(keys);
    const user = await this.users.sessionUser(pending.userId);
    if (!user) throw new AppError('not_signed_in', INVALID, undefined, { expired: true });
    const check = await this.security.checkCode(user.id, code);
    if (!check.ok) throw new AppError('not_signed_in', 'errors.security.code_wrong');
    this.limiter.forgive(keys);
    return { user, check };
  }

  /** A passkey answered: the active account it belongs to. Failures count per client address. */
  async passkeyUser(verify: () => Promise<{ userId: number; name: string }>, clientAddress: string | undefined): Promise<{ user: AuthUser; passkey: string }> {
    const keys = [`ip:${clientAddress}`];
    this.attempt(keys);
    const { userId, name } = await verify();
    const user = await this.users.sessionUser(userId);
    if (!user) throw new AppError('not_signed_in', 'errors.security.cannot_sign_in');
    this.limiter.forgive(keys);
    return { user, passkey: name };
  }

  /** After the session holds the user: last_login and the activity row. */
  signedIn(user: AuthUser): Promise<void> {
    return this.users.recordLogin(user);
  }
}
