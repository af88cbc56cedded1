import { Router } from 'express';
import { sameOriginOnly } from '../auth/auth.middleware.js';
import { guestId, withGuest } from '../http/guest.js';
import type { HeartsService } from './hearts.service.js';

/** PUT and DELETE /api/photos/:id/heart: this guest's heart on a visible photo (idempotent). */
export function heartsRouter(hearts: HeartsService): Router {
  const r = Router();
  // A heart belongs to the browser's guest cookie (given here if it has none); another site cannot set one.
  r.use('/photos/:id/heart', withGuest, sameOriginOnly);
  r.put('/photos/:id/heart', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await hearts.set(String(req.params.id), guestId(res), true)) });
  });
  r.delete('/photos/:id/heart', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, ...(await hearts.set(String(req.params.id), guestId(res), false)) });
  });
  return r;
}
