import express, { Router } from 'express';
import { requirePermission } from '../auth/middleware.js';
import { badRequest } from '../http/errors.js';
import type { ExportRequest, ExportService } from './export.service.js';

/** A download names at most this many photos (a selection on the photos screen is far smaller). */
export const MAX_EXPORT_IDS = 10_000;

const ID = /^[A-Za-z0-9_.-]{1,128}$/;

export function parseScope(raw: unknown): ExportRequest {
  if (raw === undefined || raw === 'all') return { kind: 'all' };
  if (raw === 'visible') return { kind: 'visible' };
  throw badRequest('scope must be "all" or "visible".');
}

/**
 * photo_ids as a JSON array, or from a form: one field holding a JSON array, or the field
 * repeated once per id. Duplicates are dropped, the order kept.
 */
export function parsePhotoIds(body: unknown): ExportRequest {
  const EMPTY = 'Send photo_ids: a non-empty list of photo ids.';
  let raw = body && typeof body === 'object' ? (body as Record<string, unknown>).photo_ids : undefined;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[')) {
      try {
        raw = JSON.parse(text);
      } catch {
        throw badRequest('photo_ids is not a valid JSON list.');
      }
    } else raw = text ? [text] : [];
  }
  if (!Array.isArray(raw) || raw.length === 0) throw badRequest(EMPTY);
  if (raw.length > MAX_EXPORT_IDS) throw badRequest(`At most ${MAX_EXPORT_IDS} photos can be downloaded at once; select fewer.`);
  const bad = raw.find((id) => typeof id !== 'string' || !ID.test(id));
  if (bad !== undefined) throw badRequest(`photo_ids holds something that is not a photo id: ${JSON.stringify(bad).slice(0, 80)}.`);
  return { kind: 'selected', ids: [...new Set(raw as string[])] };
}

/** /admin/api/export.zip: any signed-in user (CONTRACT, Beyond SPEC: Export). */
export function exportRouter(service: ExportService): Router {
  const r = Router();
  // Browsers post the selection as a plain form, since fetch() would hold the whole ZIP in memory.
  const form = express.urlencoded({ extended: false, limit: '2mb', parameterLimit: MAX_EXPORT_IDS + 10 });

  r.get('/export.zip', requirePermission('can_view_admin'), async (req, res) => {
    const scope = req.query.scope;
    await service.stream(parseScope(scope), res);
  });
  r.post('/export.zip', requirePermission('can_view_admin'), form, async (req, res) => {
    await service.stream(parsePhotoIds(req.body), res);
  });
  return r;
}
