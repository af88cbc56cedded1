import type { RequestHandler } from 'express';
import { AppError, forbidden } from '../errors.js';
import { FORBIDDEN_MESSAGE, type AuthUser, type Permission } from './permissions.js';

// Express's Request is declared in express-serve-static-core; merging into it there gives
// every handler a typed req.user without a global namespace.
declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthUser;
    /**
     * Signed in, but two-step sign-in is required and the account has neither a passkey nor
     * authenticator codes: it may only set one up (/admin/api/security...), see who it is and sign out.
     */
    setupUser?: AuthUser;
  }
}

const SIGN_IN = 'errors.auth.sign_in';
const CROSS_SITE = 'errors.auth.cross_site';

/** The accounts a session's user id is looked up in (the users service). */
export interface SessionUsers {
  /** The active account with this id, or null (deleted or deactivated). */
  sessionUser(id: number): Promise<AuthUser | null>;
}

/**
 * Resolves the session's user on every request; inactive or deleted users count as signed out.
 * `mustSetUp` says whether an account must set up a second factor before anything else.
 */
export function loadUser(users: SessionUsers, mustSetUp?: (userId: number) => Promise<boolean>): RequestHandler {
  return async (req, _res, next) => {
    const id = req.session?.userId;
    if (id === undefined) return next();
    const user = await users.sessionUser(id);
    if (user && mustSetUp && (await mustSetUp(user.id))) req.setupUser = user;
    else if (user) req.user = user;
    next();
  };
}

/** Who is not fully signed in: 403 two_step_required while a second factor must be set up, else 401. */
function notSignedIn(req: { setupUser?: AuthUser }): AppError {
  return req.setupUser ? new AppError('two_step_required', 'errors.security.set_up_first') : new AppError('not_signed_in', SIGN_IN);
}

export const requireAuth: RequestHandler = (req, _res, next) => {
  if (!req.user) throw notSignedIn(req);
  next();
};

/** A signed-in account, also one that must set up a second factor first (the set-up itself). */
export const requireAccount: RequestHandler = (req, _res, next) => {
  if (!req.user && !req.setupUser) throw new AppError('not_signed_in', SIGN_IN);
  next();
};

/** 401 without a session, 403 with a session that lacks the permission. */
export function requirePermission(permission: Permission): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) throw notSignedIn(req);
    if (!req.user.permissions[permission]) throw forbidden(FORBIDDEN_MESSAGE[permission]);
    next();
  };
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing calls from another site. Browsers send Origin on such requests;
 * scripts without one (curl) are allowed, since they carry no ambient cookies by accident.
 */
export const sameOriginOnly: RequestHandler = (req, _res, next) => {
  if (!UNSAFE.has(req.method)) return next();
  if (req.get('sec-fetch-site') === 'cross-site') throw forbidden(CROSS_SITE);
  const origin = req.get('origin');
  if (!origin) return next();
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw forbidden(CROSS_SITE);
  }
  // req.host honours X-Forwarded-Host only when TRUST_PROXY is on.
  const host = req.get('x-forwarded-host') && req.app.get('trust proxy fn')?.(req.socket.remoteAddress, 0)
    ? req.get('x-forwarded-host')!.split(',')[0].trim()
    : req.get('host');
  if (originHost !== host) throw forbidden(CROSS_SITE);
  next();
};
