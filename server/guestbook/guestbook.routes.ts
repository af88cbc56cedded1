import { Router, type Request, type Response } from 'express';
import { VOICE_NOTE_MAX_BYTES } from '../../common/rules.js';
import { requirePermission, sameOriginOnly } from '../auth/auth.middleware.js';
import { invalid, notFound } from '../errors.js';
import { addressKey } from '../http/address.js';
import { guestId, guestIdOf, withGuest } from '../http/guest.js';
import { beforeBody, readMultipart } from '../http/multipart.js';
import { intParam } from '../photos/photos.params.js';
import type { GuestbookFilter } from './guestbook.repo.js';
import type { GuestbookService } from './guestbook.service.js';
import { audioTooLarge } from './voice-note-intake.js';

/** Room for the form around a voice note of the largest size: the message, the name, the envelope. */
const FORM_BYTES = 128 * 1024;
const DAY_S = 24 * 60 * 60;

const declared = (req: Request) => Number(req.headers['content-length'] ?? 0) || 0;

/** Sends a stored audio file; a file gone from the disk is a 404 like an unknown id. */
function sendAudio(res: Response, abs: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.sendFile(abs, { cacheControl: false, headers: { 'Content-Type': 'audio/mp4' } }, (err?: Error & { status?: number; code?: string }) => {
      if (!err || err.code === 'ECONNABORTED' || err.code === 'ECONNRESET' || res.headersSent) return resolve();
      if (err.status === 404 || err.code === 'ENOENT') return reject(notFound('errors.guestbook.not_found'));
      reject(err);
    });
  });
}

/** A request without a guest cookie (each would be a new guest): its address, by which the hourly limit counts then. */
const anonymousAddress = (req: Request): string | null => (guestIdOf(req) ? null : addressKey(req.ip));

/** POST/GET /api/guestbook, the voice notes' files, and the guest's own messages (/api/my/guestbook). */
export function publicGuestbookRouter(guestbook: GuestbookService): Router {
  const r = Router();
  // Checked before the form is read; each refusal is answered once the body is drained.
  const checks = beforeBody(async (req) => {
    if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) throw invalid('errors.guestbook.not_multipart');
    if (declared(req) > VOICE_NOTE_MAX_BYTES + FORM_BYTES) throw audioTooLarge();
    await guestbook.ensureRoom(guestIdOf(req), anonymousAddress(req));
    await guestbook.admit(declared(req));
  });
  // A message posted from another site (a page luring a guest's browser) is refused.
  r.post('/guestbook', withGuest, sameOriginOnly, checks, async (req, res) => {
    const entry = await guestbook.create((onFile) => readMultipart(req, onFile, 'audio'), guestId(res), anonymousAddress(req));
    res.status(201).json({ success: true, entry });
  });

  r.get('/guestbook', async (req, res) => {
    const limit = intParam(req.query.limit, 'limit', { default: 20, min: 1, max: 100 });
    const offset = intParam(req.query.offset, 'offset', { default: 0, min: 0 });
    res.json({ success: true, ...(await guestbook.visible(limit, offset)) });
  });

  r.get('/guestbook/:id/audio', async (req, res) => {
    const abs = await guestbook.audioFile(String(req.params.id), { signedIn: !!req.user, guestId: guestIdOf(req) });
    // Private: a browser may keep it, no shared cache may go on serving it once the message is hidden.
    res.set('Cache-Control', `private, max-age=${DAY_S}`);
    await sendAudio(res, abs);
  });

  r.use('/my/guestbook', withGuest, sameOriginOnly);
  r.get('/my/guestbook', async (req, res) => {
    const limit = intParam(req.query.limit, 'limit', { default: 20, min: 1, max: 100 });
    const offset = intParam(req.query.offset, 'offset', { default: 0, min: 0 });
    res.set('Cache-Control', 'private, no-store');
    res.json({ success: true, ...(await guestbook.mine(guestId(res), limit, offset)) });
  });
  r.delete('/my/guestbook/:id', async (req, res) => {
    await guestbook.deleteMine(guestId(res), String(req.params.id));
    res.json({ success: true });
  });
  return r;
}

const FILTERS: readonly GuestbookFilter[] = ['pending', 'visible', 'all'];

/** /admin/api/guestbook: the list, approve and hide for any signed-in user; delete for admins. */
export function adminGuestbookRouter(guestbook: GuestbookService): Router {
  const r = Router();
  const anyAdmin = requirePermission('can_view_admin');
  r.get('/guestbook', anyAdmin, async (req, res) => {
    const status = req.query.status ?? 'all';
    if (!FILTERS.includes(status as GuestbookFilter)) throw invalid('errors.guestbook.bad_status');
    const page = intParam(req.query.page, 'page', { default: 1, min: 1 });
    const perPage = intParam(req.query.per_page, 'per_page', { default: 20, min: 1, max: 100 });
    res.json({ success: true, ...(await guestbook.adminList(status as GuestbookFilter, page, perPage)) });
  });
  r.post('/guestbook/:id/approve', anyAdmin, async (req, res) => {
    const entry = await guestbook.setVisible(String(req.params.id), true, req.user!);
    req.audit('guestbook_message.approve', { ids: [entry.id] });
    res.json({ success: true, entry });
  });
  r.post('/guestbook/:id/hide', anyAdmin, async (req, res) => {
    const entry = await guestbook.setVisible(String(req.params.id), false, req.user!);
    req.audit('guestbook_message.hide', { ids: [entry.id] });
    res.json({ success: true, entry });
  });
  r.delete('/guestbook/:id', requirePermission('can_manage_users'), async (req, res) => {
    const id = String(req.params.id);
    await guestbook.delete(id, req.user!);
    req.audit('guestbook_message.delete', { ids: [id] });
    res.json({ success: true });
  });
  return r;
}
