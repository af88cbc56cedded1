import { Router, type NextFunction, type Request, type Response } from 'express';
import { requirePermission, sameOriginOnly } from '../auth/auth.middleware.js';
import { guestId, withGuest } from '../http/guest.js';
import { readMemoryForm } from '../http/memory-file.js';
import { tooLarge } from '../errors.js';
import type { FacesService } from './faces.service.js';

/** A selfie larger than this is refused (413). */
export const MAX_SELFIE_BYTES = 15 * 1024 * 1024;

/** POST, GET and DELETE /api/faces/me: the calling guest's face search (cookie wedding_guest). */
export function publicFacesRouter(faces: FacesService): Router {
  const r = Router();
  // While off, every /api/faces/... call is 404 face_search_off before anything is read.
  r.use('/faces', (_req: Request, _res: Response, next: NextFunction) => {
    faces.requireOn().then(() => next(), next);
  });
  r.use('/faces', withGuest, sameOriginOnly, (_req, res, next) => {
    res.set('Cache-Control', 'private, no-store');
    next();
  });
  r.post('/faces/me', async (req, res) => {
    const form = await readMemoryForm(req, res, 'selfie', MAX_SELFIE_BYTES, () => tooLarge('errors.faces.too_large', { limit: '15 MB' }));
    res.json(await faces.search(guestId(res), { bytes: form.file, consent: form.fields.consent }));
  });
  r.get('/faces/me', async (_req, res) => {
    res.json(await faces.answer(guestId(res)));
  });
  r.delete('/faces/me', async (_req, res) => {
    await faces.forget(guestId(res));
    res.json({ success: true });
  });
  return r;
}

/** GET /admin/api/faces (the dashboard's card), DELETE /admin/api/faces (admins: every face code and match, now). */
export function adminFacesRouter(faces: FacesService): Router {
  const r = Router();
  r.get('/faces', requirePermission('can_view_admin'), async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, faces: await faces.status() });
  });
  r.delete('/faces', requirePermission('is_admin'), async (req, res) => {
    await faces.deleteAll();
    req.audit('face_data.delete_all');
    res.json({ success: true, faces: await faces.status() });
  });
  return r;
}
