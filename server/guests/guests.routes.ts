import { Router } from 'express';
import { requirePermission, sameOriginOnly } from '../auth/auth.middleware.js';
import { guestId, withGuest } from '../http/guest.js';
import { intParam } from '../photos/photos.params.js';
import type { GuestsService } from './guests.service.js';

/** GET /api/my/uploads, DELETE /api/my/uploads/:id: the calling guest's own files (cookie wedding_guest). */
export function myUploadsRouter(guests: GuestsService): Router {
  const r = Router();
  // Any /api/my/... call gives the browser its guest cookie; a delete from another site is refused.
  r.use('/my', withGuest, sameOriginOnly);
  r.get('/my/uploads', async (req, res) => {
    const limit = intParam(req.query.limit, 'limit', { default: 20, min: 1, max: 100 });
    const offset = intParam(req.query.offset, 'offset', { default: 0, min: 0 });
    res.set('Cache-Control', 'private, no-store');
    res.json({ success: true, ...(await guests.myUploads(guestId(res), limit, offset)) });
  });
  r.delete('/my/uploads/:id', async (req, res) => {
    await guests.deleteMine(guestId(res), String(req.params.id));
    res.json({ success: true });
  });
  return r;
}

/** GET /admin/api/uploaders: the names guests gave, with their counts (the photos page's filter). */
export function adminUploadersRouter(guests: GuestsService): Router {
  const r = Router();
  r.get('/uploaders', requirePermission('can_view_admin'), async (_req, res) => {
    res.json({ success: true, uploaders: await guests.uploaders() });
  });
  return r;
}
