import type { Request } from 'express';
import type { Ceremony } from '../security/passkeys.js';

/** A password was right and the sign-in waits for its code for this long. */
export const PENDING_MS = 5 * 60_000;

declare module 'express-session' {
  interface SessionData {
    /** Password checked, code not yet: nothing is allowed but POST /admin/api/login/code. */
    pending: { userId: number; username: string; until: number };
    /** Adding a passkey: the challenge the browser's answer must carry. */
    webauthn: Ceremony;
    /** A new authenticator secret shown as a QR code, turned on once a code from it is typed. */
    totpSetup: { secret: string; at: number };
  }
}

export function regenerate(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
}

export function save(req: Request): Promise<void> {
  return new Promise((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

/** A fresh session id holding the signed-in user (no session fixation). */
export async function startSession(req: Request, userId: number): Promise<void> {
  await regenerate(req);
  req.session.userId = userId;
  req.session.signedInAt = Date.now();
  await save(req);
}

/** A fresh session that only remembers whose password was right, for the code step. */
export async function startPending(req: Request, user: { id: number; username: string }): Promise<void> {
  await regenerate(req);
  req.session.pending = { userId: user.id, username: user.username, until: Date.now() + PENDING_MS };
  await save(req);
}
