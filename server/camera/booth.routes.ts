import fs from 'node:fs';
import { Router, type Request } from 'express';
import type { Kysely } from 'kysely';
import { requirePermission } from '../auth/auth.middleware.js';
import type { Originals } from '../context.js';
import type { DB } from '../db/schema.js';
import { AppError, notFound } from '../errors.js';
import { readMultipart } from '../http/multipart.js';
import type { UploadsService } from '../uploads/uploads.service.js';
import { BOOTH_COOKIE, BOOTH_NAME, type Booths } from './booth.js';

const BOOTH_MAX_AGE_MS = 400 * 24 * 3600_000;

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

const notABooth = () => new AppError('forbidden', 'errors.booth.not_opened');

/**
 * POST /admin/api/booth (a signed-in user opens the booth on this browser: its cookie),
 * GET /admin/api/booths, DELETE /admin/api/booths/:id (revoke).
 */
export function adminBoothRouter(booths: Booths): Router {
  const r = Router();
  const signedIn = requirePermission('can_view_admin');
  r.post('/booth', signedIn, async (req, res) => {
    const user = req.user!;
    const b = await booths.open({ id: user.id, name: user.full_name || user.username });
    res.cookie(BOOTH_COOKIE, b.token, { httpOnly: true, sameSite: 'lax', path: '/', maxAge: BOOTH_MAX_AGE_MS, secure: req.secure });
    req.audit('booth.open', { detail: { booth: b.id } });
    res.status(201).json({ success: true, booth: { id: b.id } });
  });
  r.get('/booths', signedIn, async (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ success: true, booths: await booths.list() });
  });
  r.delete('/booths/:id', signedIn, async (req, res) => {
    if (!(await booths.revoke(String(req.params.id)))) throw notFound();
    req.audit('booth.revoke', { detail: { booth: String(req.params.id) } });
    res.json({ success: true });
  });
  return r;
}

/** GET /api/booth (is this browser a booth?), POST /api/booth/upload (a booth picture: stored as "Photo booth", answered with its QR code's address). */
export function publicBoothRouter(booths: Booths, uploads: UploadsService): Router {
  const r = Router();
  r.get('/booth', async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ success: true, booth: !!(await booths.byToken(cookieOf(req, BOOTH_COOKIE))) });
  });
  r.post('/booth/upload', async (req, res) => {
    const booth = await booths.byToken(cookieOf(req, BOOTH_COOKIE));
    if (!booth) {
      req.resume();
      throw notABooth();
    }
    await uploads.ensureEnabled();
    // Whatever the form says, a booth picture carries the booth's name and no guest.
    const stored = await uploads.receiveFile(
      (onFile) => readMultipart(req, onFile).then((f) => ({ ...f, fields: { ...f.fields, uploader_name: BOOTH_NAME } })),
      null,
      true,
    );
    const share = await booths.share(booth.id, stored.photoId);
    res.status(stored.duplicate ? 200 : 201).json({ success: true, photo_id: stored.photoId, share_url: `/b/${share.token}`, expires_at: share.expires_at });
  });
  return r;
}

/** GET /b/{token}: the one booth picture its QR code opens (before approval too), for 7 days; anything else 404. */
export function shareRouter(booths: Booths, db: Kysely<DB>, originals: Originals): Router {
  const r = Router();
  r.get('/b/:token', async (req, res) => {
    const id = await booths.shared(String(req.params.token));
    const photo = id ? await db.selectFrom('photos').select(['id', 'stored_path', 'content_type']).where('id', '=', id).executeTakeFirst() : undefined;
    const file = photo ? await originals.ensure(photo) : null;
    if (!photo || !file || !fs.existsSync(file)) {
      res.status(404).type('text/plain').send('Not found');
      return;
    }
    res.set({ 'Cache-Control': 'private, max-age=3600', 'Content-Disposition': 'inline; filename="photo-booth.jpg"', 'X-Robots-Tag': 'noindex' });
    res.type(photo.content_type).sendFile(file);
  });
  return r;
}
