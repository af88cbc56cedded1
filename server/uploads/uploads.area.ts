import { Router, type Request, type Response } from 'express';
import type { Area, Shared } from '../area.js';
import { HttpError } from '../http/errors.js';
import { log } from '../log.js';
import { uploadKey } from './chunk-fields.js';
import { ChunkedUploads } from './chunked-upload.js';
import { answerAfterDrain } from './multipart.js';
import { receiveSingleUpload, tooLarge } from './single-upload.js';
import { cleanFilename } from './store.js';
import { UploadsRepo } from './uploads.repo.js';

const CLEANUP_EVERY_MS = 60 * 60_000;
export const UPLOADS_OFF = 'Uploads are not enabled yet';

/** Guest uploads: single and chunked ingest, resume offsets, and the per-photo status poll. */
export function createUploadsArea(shared: Shared): Area {
  const repo = new UploadsRepo(shared.ctx.db);
  const chunked = new ChunkedUploads(shared, repo);
  let timer: NodeJS.Timeout | undefined;

  // Checked before any byte is read; the body is drained so a phone still sending sees the answer.
  const whenEnabled = (handler: (req: Request) => Promise<{ status: number; body: unknown }>) => async (req: Request, res: Response) => {
    if (!(await shared.settings.uploadsEnabled())) {
      answerAfterDrain(req, res, 403, { success: false, error: UPLOADS_OFF });
      return;
    }
    const { status, body } = await handler(req);
    res.status(status).json(body);
  };

  const api = Router();
  api.post('/upload', async (req, res, next) => {
    // A body declared far over the limit is refused before any of it is read.
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > shared.ctx.config.maxUploadBytes + 1024 * 1024) {
      answerAfterDrain(req, res, 413, { success: false, error: tooLarge(shared.ctx.config.maxUploadBytes)().message });
      return;
    }
    next();
  });
  api.post('/upload', whenEnabled((req) => receiveSingleUpload(shared, repo, req)));
  api.post('/upload-chunk', whenEnabled((req) => chunked.receive(req)));

  api.get('/upload-chunk/offset', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string).trim() : '');
    const uploadId = str('upload_id') || undefined;
    const totalSize = str('total_size');
    if (!uploadId) {
      if (!str('session_id') || !str('filename') || !/^\d{1,16}$/.test(totalSize)) {
        throw new HttpError(400, 'Give session_id, filename and total_size (a whole number), or an upload_id.');
      }
    }
    const key = uploadKey(uploadId, str('session_id'), cleanFilename(str('filename')), Number(totalSize));
    res.json(await chunked.offset(key));
  });

  api.get('/photos/:id/status', async (req, res) => {
    const row = await repo.photoStatus(String(req.params.id));
    if (!row) throw new HttpError(404, 'No photo with this id.');
    res.json({ success: true, status: row.status, duplicate_type: null });
  });

  const sweep = () => chunked.cleanup().catch((e) => log.warn('Cleaning up stale partial uploads failed', e));

  return {
    publicApi: [api],
    async start() {
      await sweep();
      timer = setInterval(sweep, CLEANUP_EVERY_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}

export { ChunkedUploads };
