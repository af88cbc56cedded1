import type { RequestHandler } from 'express';
import type { Kysely } from 'kysely';
import type { DB, Role } from '../db/schema.js';
import { HttpError } from '../http/errors.js';
import { FORBIDDEN_MESSAGE, permissionsFor, type Permission, type Permissions } from './permissions.js';

export interface AuthUser {
  id: number;
  username: string;
  full_name: string;
  role: Role;
  permissions: Permissions;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      user?: AuthUser;
    }
  }
}

/** Resolves the session's user on every admin request; inactive or deleted users count as signed out. */
export function loadUser(db: Kysely<DB>): RequestHandler {
  return async (req, _res, next) => {
    const id = req.session?.userId;
    if (id === undefined) return next();
    const row = await db
      .selectFrom('users')
      .select(['id', 'username', 'full_name', 'role', 'is_active'])
      .where('id', '=', id)
      .executeTakeFirst();
    if (row && row.is_active) {
      req.user = {
        id: row.id,
        username: row.username,
        full_name: row.full_name,
        role: row.role,
        permissions: permissionsFor(row.role),
      };
    }
    next();
  };
}

export const requireAuth: RequestHandler = (req, _res, next) => {
  if (!req.user) throw new HttpError(401, 'Please sign in to continue.');
  next();
};

/** 401 without a session, 403 with a session that lacks the permission. */
export function requirePermission(permission: Permission): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) throw new HttpError(401, 'Please sign in to continue.');
    if (!req.user.permissions[permission]) throw new HttpError(403, FORBIDDEN_MESSAGE[permission]);
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
  if (req.get('sec-fetch-site') === 'cross-site') throw new HttpError(403, 'Cross-site requests are not allowed.');
  const origin = req.get('origin');
  if (!origin) return next();
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new HttpError(403, 'Cross-site requests are not allowed.');
  }
  // req.host honours X-Forwarded-Host only when TRUST_PROXY is on.
  const host = req.get('x-forwarded-host') && req.app.get('trust proxy fn')?.(req.socket.remoteAddress, 0)
    ? req.get('x-forwarded-host')!.split(',')[0].trim()
    : req.get('host');
  if (originHost !== host) throw new HttpError(403, 'Cross-site requests are not allowed.');
  next();
};
