import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/** The cookie that tells one guest's browser from another's (no account, no login). */
export const GUEST_COOKIE = 'wedding_guest';
const GUEST_MAX_AGE_MS = 400 * 24 * 60 * 60 * 1000;
/** Our ids are 16 random bytes in base64url; anything else in the cookie is ignored and replaced. */
const GUEST_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The guest id the request's cookie carries, if it is one of ours. */
export function guestIdOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0 || part.slice(0, i).trim() !== GUEST_COOKIE) continue;
    const value = part.slice(i + 1).trim();
    if (GUEST_ID_PATTERN.test(value)) return value;
  }
  return undefined;
}

/** The guest id set by `withGuest` for this request. */
export function guestId(res: Response): string {
  const id = res.locals.guestId as string | undefined;
  if (!id) throw new Error('withGuest must run before guestId is read');
  return id;
}

/**
 * Gives the request a guest: the cookie's id, or a new random one sent back as the cookie
 * (HttpOnly, SameSite=Lax, Path=/, 400 days, Secure when the request came over HTTPS).
 */
export const withGuest: RequestHandler = (req, res, next) => {
  giveGuest(req, res);
  next();
};

/**
 * withGuest's work, for a handler that answers itself (a guest page gives the browser its cookie
 * before its first heart or message, which without one are limited per address).
 */
export function giveGuest(req: Request, res: Response): string {
  // Several routers may each ask for a guest on the same request: one id, one cookie.
  if (res.locals.guestId) return res.locals.guestId as string;
  let id = guestIdOf(req);
  if (!id) {
    id = crypto.randomBytes(16).toString('base64url');
    res.cookie(GUEST_COOKIE, id, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: GUEST_MAX_AGE_MS, secure: req.secure });
  }
  res.locals.guestId = id;
  return id;
}
