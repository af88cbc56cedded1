import { Router, type Request, type Response } from 'express';
import { sameOriginOnly } from '../auth/auth.middleware.js';
import { addressKey } from '../http/address.js';
import { guestId, guestIdOf, withGuest } from '../http/guest.js';
import type { HeartGiver, HeartsService } from './hearts.service.js';

/**
 * Who sets the heart: the guest the cookie names (given now if the request had none); without
 * one (each such request would be a new guest) its address is limited too.
 */
const giver = (req: Request, res: Response): HeartGiver => (guestIdOf(req) ? { guestId: guestId(res) } : { guestId: guestId(res), anonymousAddress: addressKey(req.ip) });

/** PUT and DELETE /api/photos/:id/heart: this guest's heart on a visible photo (idempotent). */
export function heartsRouter(hearts: HeartsService): Router {
  const r = Router();
  // A heart belongs to the browser's guest cookie (given here if it has none); another site cannot set one.
  r.use('/photos/:id/heart', withGuest, sameOriginOnly);
  r.put('/photos/:id/heart', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await hearts.set(String(req.params.id), giver(req, res), true)) });
  });
  r.delete('/photos/:id/heart', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await hearts.set(String(req.params.id), giver(req, res), false)) });
  });
  return r;
}
