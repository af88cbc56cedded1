import express, { Router, type Request, type Response } from 'express';
import { MAX_EXPORT_IDS, parsePhotoIds } from '../../common/rules.js';
import { requirePermission } from '../auth/auth.middleware.js';
import { invalid } from '../errors.js';
import type { ArchiveFileName } from './export.names.js';
import type { ExportRequest, ExportService } from './export.service.js';

export function parseScope(raw: unknown): ExportRequest {
  if (raw === undefined || raw === 'all') return { kind: 'all' };
  if (raw === 'visible') return { kind: 'visible' };
  throw invalid('errors.export.bad_scope');
}

/**
 * photo_ids as a JSON array, or from a form: one field holding a JSON array, or the field
 * repeated once per id. Duplicates are dropped, the order kept.
 */
export function parseExportIds(body: unknown): ExportRequest {
  let raw = body && typeof body === 'object' ? (body as Record<string, unknown>).photo_ids : undefined;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (text.startsWith('[')) {
      try {
        raw = JSON.parse(text);
      } catch {
        throw invalid('errors.export.ids_not_json');
      }
    } else raw = text ? [text] : [];
  }
  const parsed = parsePhotoIds(raw, MAX_EXPORT_IDS);
  if ('ids' in parsed) return { kind: 'selected', ids: parsed.ids };
  // The shared rule's sentences, worded for a download where they say more to the person.
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('errors.export.ids_empty');
  if (raw.length > MAX_EXPORT_IDS) throw invalid('errors.export.too_many', { max: MAX_EXPORT_IDS });
  throw invalid(parsed.problem);
}

/** RFC 6266: a plain ASCII name for old clients plus the UTF-8 one. */
export function contentDisposition(file: ArchiveFileName): string {
  const encoded = encodeURIComponent(file.unicode).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${file.ascii}"; filename*=UTF-8''${encoded}`;
}

/** Sends headers at once, then the archive as it is written; resolves when the response is over. */
export async function sendArchive(service: ExportService, request: ExportRequest, req: Request, res: Response): Promise<void> {
  const file = await service.archiveName(request.kind);
  // HEAD reads no original; otherwise a bucket that holds some of them and does not answer is a 503 now, not a broken ZIP later.
  if (req.method !== 'HEAD') await service.originalsReachable(request);
  // Gone while the settings were read: nothing to write to.
  if (res.destroyed || !res.socket || res.socket.destroyed) return;
  res.writeHead(200, {
    'Content-Type': 'application/zip',
    'Content-Disposition': contentDisposition(file),
    'Cache-Control': 'no-store',
    'X-Accel-Buffering': 'no', // nginx would otherwise buffer the whole download
  });
  // HEAD gets the headers only; building the archive would read every original for nothing.
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  req.audit('export.zip', request.kind === 'selected' ? { ids: request.ids, detail: { scope: 'selected' } } : { detail: { scope: request.kind } });
  res.flushHeaders();
  const run = service.start(request, () => {
    if (!res.destroyed) res.destroy();
  });
  // The response closing is the one end signal: finished, or the client went away.
  res.on('close', () => run.settle(res.writableFinished));
  run.archive.pipe(res);
  await run.done;
}

/** /admin/api/export.zip: any signed-in user (CONTRACT, Beyond SPEC: Export). */
export function exportRouter(service: ExportService): Router {
  const r = Router();
  // Browsers post the selection as a plain form, since fetch() would hold the whole ZIP in memory.
  const form = express.urlencoded({ extended: false, limit: '2mb', parameterLimit: MAX_EXPORT_IDS + 10 });

  r.get('/export.zip', requirePermission('can_view_admin'), async (req, res) => {
    await sendArchive(service, parseScope(req.query.scope), req, res);
  });
  r.post('/export.zip', requirePermission('can_view_admin'), form, async (req, res) => {
    await sendArchive(service, parseExportIds(req.body), req, res);
  });
  return r;
}
