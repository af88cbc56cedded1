import { Router } from 'express';
import { requirePermission } from '../auth/auth.middleware.js';
import type { DownloadTokens } from './download-tokens.js';
import { boolParam, bulkAction, intParam, photoIds, rotationDegrees } from './photos.params.js';
import type { AdminFilter } from './photos.repo.js';
import type { PhotosService } from './photos.service.js';
import { invalid } from '../errors.js';
import { languageOf } from '../http/language.js';
import { translate } from '../i18n/messages.js';
import { guestIdOf } from '../http/guest.js';
import { MAX_TABLES } from '../settings/controls.js';
import { GALLERY_PAGE_SIZE, isPlainGallery } from '../../common/gallery.js';
import { galleryScreen } from '../http/gallery-html.js';
import type { FirstScreenFor } from '../http/index-page.js';

/** GET /api/photos, GET /api/stats, GET /api/photos/:id/status */
export function publicPhotosRouter(photos: PhotosService): Router {
  const r = Router();
  r.get('/photos', async (req, res) => {
    const limit = intParam(req.query.limit, 'limit', { default: 20, min: 1, max: 100 });
    const offset = intParam(req.query.offset, 'offset', { default: 0, min: 0 });
    const { moment, challenge } = req.query;
    if (moment !== undefined && typeof moment !== 'string') throw invalid('errors.photos.bad_moment');
    const sort = req.query.sort ?? 'newest';
    if (sort !== 'newest' && sort !== 'loved') throw invalid('errors.photos.bad_sort');
    const highlights = boolParam(req.query.highlights, 'highlights', false);
    if (challenge !== undefined && typeof challenge !== 'string') throw invalid('errors.photos.bad_challenge');
    if (moment !== undefined && challenge !== undefined) throw invalid('errors.photos.moment_and_challenge');
    const table = req.query.table === undefined ? undefined : intParam(req.query.table, 'table', { default: 1, min: 1, max: MAX_TABLES });
    // The wall (public anyway) keeps showing photos before the gallery's reveal time.
    const wall = req.query.view === 'wall';
    // The answer marks this guest's own hearts: no shared cache may keep it for another.
    res.set('Cache-Control', 'private, no-cache');
    const plain = moment === undefined && challenge === undefined && table === undefined && sort === 'newest' && !highlights && !wall;
    const ready = plain ? await photos.answers.get(limit, offset, guestIdOf(req)) : null;
    if (ready) {
      res.set('ETag', ready.etag).type('json').send(ready.body);
      return;
    }
    res.json({ success: true, ...(await photos.gallery(limit, offset, { moment, challenge, table, sort, highlights, wall, guestId: guestIdOf(req) })) });
  });
  r.get('/stats', async (_req, res) => {
    res.json({ success: true, stats: await photos.stats() });
  });
  // Polled by the guest page after an upload; a stored photo is never a duplicate here.
  r.get('/photos/:id/status', async (req, res) => {
    res.json({ success: true, status: await photos.status(String(req.params.id)), duplicate_type: null });
  });
  return r;
}

/**
 * `/gallery`'s first screen: the first page exactly as this guest's `GET /api/photos` would
 * answer it (visible photos only, the same addresses; nothing while the gallery is closed), drawn
 * into the page's HTML so its thumbnails load before the scripts have run.
 */
export function galleryFirstScreen(photos: PhotosService): FirstScreenFor {
  return async (req, { path, query, language }) => {
    if (!isPlainGallery(path, query)) return null;
    const page = await photos.gallery(GALLERY_PAGE_SIZE, 0, { guestId: guestIdOf(req) });
    return galleryScreen(language, { success: true, ...page });
  };
}

const s = (v: unknown) => String(v);

/** /admin/api/photos...: listing and moderation; roles as SPEC §6. */
export function adminPhotosRouter(photos: PhotosService, tokens: DownloadTokens): Router {
  const r = Router();
  const anyAdmin = requirePermission('can_view_admin');
  const moderator = requirePermission('can_moderate_photos');
  const deleter = requirePermission('can_delete_photos');

  r.get('/photos', anyAdmin, async (req, res) => {
    const page = intParam(req.query.page, 'page', { default: 1, min: 1 });
    const perPage = intParam(req.query.per_page, 'per_page', { default: 20, min: 1, max: 100 });
    const pending = boolParam(req.query.pending, 'pending', false);
    const showAll = boolParam(req.query.show_all, 'show_all', true);
    const filter: AdminFilter = pending ? 'hidden' : showAll ? 'all' : 'visible';
    const uploader = req.query.uploader;
    if (uploader !== undefined && typeof uploader !== 'string') throw invalid('errors.photos.bad_uploader');
    const group = req.query.similar_group;
    if (group !== undefined && typeof group !== 'string') throw invalid('errors.photos.bad_similar_group');
    const flagged = boolParam(req.query.flagged, 'flagged', false);
    res.json({ success: true, ...(await photos.adminList(filter, page, perPage, { uploader: uploader || undefined, flagged, similarGroup: group || undefined })) });
  });

  r.post('/photos/bulk-toggle-visibility', anyAdmin, async (req, res) => {
    const ids = photoIds(req.body);
    const action = bulkAction(req.body);
    const result = await photos.bulkVisibility(ids, action === 'show', req.user!);
    req.audit(action === 'show' ? 'photo.bulk_show' : 'photo.bulk_hide', { ids });
    const lang = languageOf(req);
    const done = translate(lang, action === 'show' ? 'answers.photos_shown' : 'answers.photos_hidden', { count: result.updated });
    const missing = result.not_found.length ? translate(lang, 'answers.photos_not_found', { count: result.not_found.length }) : '';
    res.json({ success: true, message: done + missing, ...result });
  });

  r.delete('/photos/bulk-delete', deleter, async (req, res) => {
    const ids = photoIds(req.body);
    const result = await photos.bulkDelete(ids, req.user!);
    req.audit('photo.bulk_delete', { ids, detail: { deleted: result.deleted, failed: result.failed_deletes.length } });
    const lang = languageOf(req);
    const failed = result.failed_deletes.length ? translate(lang, 'answers.photos_not_deleted', { count: result.failed_deletes.length }) : '';
    res.json({ success: true, message: translate(lang, 'answers.photos_deleted', { count: result.deleted }) + failed, ...result });
  });

  r.post('/photos/regenerate-all-thumbnails', moderator, async (req, res) => {
    req.audit('photo.regenerate_all');
    const { statistics, running } = await photos.regenerateAll();
    res.json({ success: true, statistics, running });
  });

  r.post('/photos/:id/toggle-visibility', anyAdmin, async (req, res) => {
    const photo = await photos.toggle(s(req.params.id), req.user!);
    req.audit(photo.is_visible ? 'photo.show' : 'photo.hide', { ids: [photo.id] });
    res.json({ success: true, photo });
  });
  r.post('/photos/:id/approve', anyAdmin, async (req, res) => {
    const photo = await photos.setVisible(s(req.params.id), true, req.user!);
    req.audit('photo.approve', { ids: [photo.id] });
    res.json({ success: true, photo });
  });
  r.post('/photos/:id/hide', anyAdmin, async (req, res) => {
    const photo = await photos.setVisible(s(req.params.id), false, req.user!);
    req.audit('photo.hide', { ids: [photo.id] });
    res.json({ success: true, photo });
  });

  r.post('/photos/:id/highlight', moderator, async (req, res) => {
    const on = (req.body as { highlighted?: unknown } | undefined)?.highlighted;
    if (typeof on !== 'boolean') throw invalid('errors.rule.boolean', { field: 'highlighted' });
    const photo = await photos.setHighlighted(s(req.params.id), on);
    req.audit(on ? 'photo.highlight' : 'photo.unhighlight', { ids: [photo.id] });
    res.json({ success: true, photo });
  });
  r.post('/photos/:id/keep-best', moderator, async (req, res) => {
    const kept = await photos.keepBest(s(req.params.id), req.user!);
    req.audit('photo.keep_best', { ids: [kept.photo.id, ...kept.hidden_ids] });
    res.json({ success: true, ...kept });
  });

  r.delete('/photos/:id/delete', deleter, async (req, res) => {
    const row = await photos.delete(s(req.params.id), req.user!);
    req.audit('photo.delete', { ids: [row.id], detail: { filename: row.original_filename } });
    res.json({ success: true, message: translate(languageOf(req), 'answers.photo_deleted', { name: row.original_filename }) });
  });

  r.post('/photos/:id/rotate', moderator, async (req, res) => {
    const degrees = rotationDegrees(req.body);
    const photo = await photos.rotate(s(req.params.id), degrees);
    req.audit('photo.rotate', { ids: [photo.id], detail: { degrees } });
    res.json({ success: true, photo });
  });
  r.post('/photos/:id/regenerate-thumbnail', moderator, async (req, res) => {
    const photo = await photos.regenerate(s(req.params.id));
    req.audit('photo.regenerate_thumbnail', { ids: [photo.id] });
    res.json({ success: true, photo });
  });

  r.get('/photos/:id/download', anyAdmin, async (req, res) => {
    const row = await photos.get(s(req.params.id));
    const token = tokens.create(row.id, req.user!.id);
    req.audit('photo.download', { ids: [row.id] });
    res.set('Cache-Control', 'no-store');
    res.json({ success: true, download_url: `/media/${encodeURIComponent(row.id)}/original?token=${token}` });
  });
  return r;
}
