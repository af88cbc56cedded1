import { Router, type NextFunction, type Request, type Response } from 'express';
import { requirePermission, sameOriginOnly } from '../auth/auth.middleware.js';
import { guestId, withGuest } from '../http/guest.js';
import { readMemoryForm } from '../http/memory-file.js';
import { sendErrorAfterDrain } from '../http/multipart.js';
import { AppError, tooLarge } from '../errors.js';
import type { FacesService } from './faces.service.js';

/** A selfie larger than this is refused (413). */
export const MAX_SELFIE_BYTES = 15 * 1024 * 1024;
/** Selfies read and searched at once, server-wide: each holds up to 15 MB here and a copy in a face worker. */
export const SELFIES_AT_ONCE = 4;
/** ... and from one client address (a guest tapping twice, or a script). */
export const SELFIES_PER_ADDRESS = 1;
/** Seconds a refused guest is asked to wait: about one selfie's search. */
const SELFIE_RETRY_SECONDS = 10;

/** Counts the selfies in progress; `admit` gives a release, or null when a limit is reached. */
export class SelfieSlots {
  private total = 0;
  private readonly byAddress = new Map<string, number>();

  constructor(
    private readonly max = SELFIES_AT_ONCE,
    private readonly perAddress = SELFIES_PER_ADDRESS,
  ) {}

  admit(address: string): (() => void) | null {
    const mine = this.byAddress.get(address) ?? 0;
    if (this.total >= this.max || mine >= this.perAddress) return null;
    this.total++;
    this.byAddress.set(address, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.byAddress.get(address) ?? 1) - 1;
      if (left > 0) this.byAddress.set(address, left);
      else this.byAddress.delete(address);
    };
  }
}

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
  const slots = new SelfieSlots();
  r.post('/faces/me', async (req, res) => {
    // Counted before a byte of the selfie is read; held until its search has ended, even when
    // the guest went away meanwhile (the face worker still holds the copy until then).
    const release = slots.admit(req.ip ?? req.socket.remoteAddress ?? '');
    if (!release) return sendErrorAfterDrain(req, res, new AppError('rate_limited', 'errors.faces.busy', undefined, { retry_after: SELFIE_RETRY_SECONDS }));
    try {
      const form = await readMemoryForm(req, res, 'selfie', MAX_SELFIE_BYTES, () => tooLarge('errors.faces.too_large', { limit: '15 MB' }));
      res.json(await faces.search(guestId(res), { bytes: form.file, consent: form.fields.consent }));
    } finally {
      release();
    }
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
