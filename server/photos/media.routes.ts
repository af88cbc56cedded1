import { Router, type Request, type Response } from 'express';
import { localOriginals, type DataPaths, type Originals } from '../context.js';
import type { PhotoRow } from '../db/schema.js';
import { AppError, forbidden, notFound } from '../errors.js';
import { guestIdOf } from '../http/guest.js';
import type { DownloadTokens } from './download-tokens.js';
import { withRealExtension } from './file-names.js';
import { MediaCache, type CachedFile } from './media-cache.js';
import { resolveStored } from './photo-files.js';
import type { PhotosService } from './photos.service.js';

const YEAR = 365 * 24 * 60 * 60;
const MEDIA_NOT_FOUND = 'errors.media.not_found';

/** A 404 that no cache keeps: the same URL serves once the photo is approved or processed. */
function gone(res: Response, message = MEDIA_NOT_FOUND): AppError {
  res.set('Cache-Control', 'no-store');
  return notFound(message);
}

/** Streams a file (Range, ETag, 304 handled by send); a file missing on disk is a 404. */
function sendFile(res: Response, abs: string): Promise<void> {
  return new Promise((resolve, reject) => {
    res.sendFile(abs, { cacheControl: false, dotfiles: 'allow' }, (err?: Error & { status?: number; code?: string }) => {
      if (!err) return resolve();
      if (err.code === 'ECONNABORTED' || err.code === 'ECONNRESET' || res.headersSent) return resolve();
      if (err.status === 404 || err.code === 'ENOENT') return reject(gone(res));
      if (err.status === 416) return reject(new AppError('range_not_satisfiable', 'errors.media.bad_range'));
      reject(err);
    });
  });
}

/**
 * Thumbnails and display images held in memory (media-cache.ts): 64 MiB, files up to 4 MiB (a
 * phone photo's display image is 0.2-1 MB, its thumbnail 20-60 KB): the thumbnails of a thousand
 * photos and the display images of the newest hundred or so. At 128 MiB the server and the media
 * worker went over their 700 MiB under the rush on Node 24 (docs/benchmarks.md, Keepsakes,
 * 2026-12-08); what is not held is read from the disk's cache as before.
 */
const CACHE_BYTES = 64 * 1024 * 1024;
const CACHE_FILE_BYTES = 4 * 1024 * 1024;

/** Answers from memory what send would have answered from disk (a 304 for a copy still valid). */
function sendCached(req: Request, res: Response, f: CachedFile): void {
  res.set({ 'Content-Type': 'image/webp', ETag: f.etag, 'Last-Modified': f.lastModified, 'Accept-Ranges': 'bytes' });
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.set('Content-Length', String(f.body.length));
  res.end(f.body);
}

/**
 * GET /media/:id/thumb and /media/:id/display (derivatives: GPS-free, public for visible photos,
 * admins only for hidden ones) and /media/:id/original?token= (the original, for the admin the
 * token was issued to).
 */
export function mediaRouter(
  paths: DataPaths,
  photos: PhotosService,
  tokens: DownloadTokens,
  originals: Originals = localOriginals(paths),
  cache = new MediaCache(CACHE_BYTES, CACHE_FILE_BYTES),
): Router {
  const r = Router();

  const photoFor = async (req: Request, res: Response): Promise<PhotoRow> => {
    const row = await photos.find(String(req.params.id));
    // A hidden photo's media look exactly like an unknown id to anyone but an admin and the guest who sent it.
    if (!row || (!row.is_visible && !req.user && !(await photos.ownedBy(row, guestIdOf(req))))) throw gone(res);
    return row;
  };

  const derivative = (column: 'thumb_path' | 'display_path') => async (req: Request, res: Response) => {
    const row = await photoFor(req, res);
    const abs = resolveStored(paths, row[column]);
    if (!abs) throw gone(res, 'errors.media.not_generated');
    // The URL names the derivative version; a rebuilt file gets a new URL, so this one never changes.
    // Always private: a browser may keep it, but no shared cache (a tunnel's CDN) may go on
    // serving a photo after the couple hides it.
    const versioned = req.query.v === String(row.derivative_version);
    res.set('Cache-Control', versioned ? `private, max-age=${YEAR}, immutable` : 'private, no-cache');
    // WebP images come from memory; a video's web copy and any Range request stream from disk.
    if (abs.endsWith('.webp') && !req.headers.range) {
      const cached = await cache.get(abs).catch((e: NodeJS.ErrnoException) => {
        if (e.code === 'ENOENT') throw gone(res);
        throw e;
      });
      if (cached) return sendCached(req, res, cached);
    }
    await sendFile(res, abs);
  };

  r.get('/media/:id/thumb', derivative('thumb_path'));
  r.get('/media/:id/display', derivative('display_path'));

  r.get('/media/:id/original', async (req, res) => {
    if (!req.user) throw new AppError('not_signed_in', 'errors.auth.sign_in');
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const verdict = tokens.check(token, String(req.params.id), req.user.id);
    if (verdict === 'wrong-user') throw forbidden('errors.media.other_account');
    if (verdict === 'expired') throw gone(res, 'errors.media.link_expired');
    const row = await photos.find(String(req.params.id));
    // Fetched back from the couple's bucket first when the local disk gave it up (503 while the bucket is away).
    const abs = row && (await originals.ensure(row));
    if (!row || !abs) throw gone(res);
    // filename plus RFC 5987 filename* for non-ASCII names; the extension is the file's real type's.
    res.attachment(withRealExtension(row.original_filename, row.content_type));
    res.set({ 'Content-Type': row.content_type, 'Cache-Control': 'private, no-store' });
    await sendFile(res, abs);
  });

  // Anything else under /media is a JSON 404, not the client's index.html.
  r.use('/media', (_req, res) => {
    throw gone(res);
  });

  return r;
}
