import { LOGIN_FIELD_MAX } from '../../common/rules.js';
import { AppError, invalid } from '../errors.js';
import type { UsersService } from '../users/users.service.js';
import type { AuthUser } from './permissions.js';
import { FailureLimiter } from './rate-limit.js';

const INVALID = 'errors.auth.invalid_credentials';

/** Sign-in decisions: required fields, the failure limit per username and client address, the password check. */
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly limiter = new FailureLimiter(),
  ) {}

  /** The user these credentials sign in, or an AppError (invalid_input, rate_limited, not_signed_in). */
  async signIn(username: string, password: string, clientAddress: string | undefined): Promise<AuthUser> {
    if (!username || !password) throw invalid('errors.auth.fields_required');
    // Checked before any hashing or lookup: a megabyte "username" costs nothing and is never a map key.
    if (username.length > LOGIN_FIELD_MAX || password.length > LOGIN_FIELD_MAX) {
      throw invalid('errors.auth.fields_too_long', { max: LOGIN_FIELD_MAX });
    }
    const keys = [`user:${username.toLowerCase()}`, `ip:${clientAddress}`];
    // Counted now, before the password is checked, so parallel guesses cannot all pass the limit.
    const wait = this.limiter.attempt(keys);
    if (wait > 0) {
      throw new AppError('rate_limited', 'errors.auth.too_many_attempts', { minutes: Math.ceil(wait / 60) }, { retry_after: wait });
    }
    const user = await this.users.verifyCredentials(username, password);
    if (!user) throw new AppError('not_signed_in', INVALID);
    this.limiter.forgive(keys);
    return user;
  }

  /** After the session holds the user: last_login and the activity row. */
  signedIn(user: AuthUser): Promise<void> {
    return this.users.recordLogin(user);
  }
}
