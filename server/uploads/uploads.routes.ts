import { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, invalid, isAppError } from '../errors.js';
import { inProgressCap } from '../http/in-progress.js';
import { guestId, guestIdOf, withGuest } from '../http/guest.js';
import { readMultipart, sendErrorAfterDrain } from '../http/multipart.js';
import { fileTooLarge } from './single-upload.js';
import type { StoredUpload } from './store.js';
import type { ReadForm } from './streams.js';
import { MAX_TURN_BYTES, type UploadTurns } from './turns.js';
import type { UploadsService } from './uploads.service.js';

/** Room for the multipart envelope around a file of the largest allowed size. */
const ENVELOPE_BYTES = 1024 * 1024;

/** SPEC §3 "upload creation response": 201 for a new photo, 200 for an exact duplicate. */
function sendCreated(res: Response, r: StoredUpload): void {
  if (r.duplicate) res.status(200).json({ success: true, photo_id: r.photoId, duplicate: true, duplicate_type: 'exact' });
  else res.status(201).json({ success: true, photo_id: r.photoId, duplicate: false, duplicate_type: null });
}

const formOf =
  (req: Request): ReadForm =>
  (onFile) =>
    readMultipart(req, onFile);

/** Seconds a phone refused by the cap on uploads in progress waits before trying again. */
const BUSY_RETRY_AFTER_S = 5;

/**
 * An upload's answer closes its connection: the phone's next upload request starts on a new one.
 * A connection the server has read fast has a receive window grown to megabytes (Linux's
 * autotuning), and on it a phone's next 5 MiB chunk would sit whole in the kernel's buffers, sent
 * as far as the phone can tell, while other uploads are read first: its answer would wait seconds
 * after its last byte. A new connection starts with a small window, so the phone's last bytes
 * leave only once the server is reading that request (uploads/pacer.ts). A new connection costs
 * one round trip, nothing next to a chunk's megabytes.
 */
const freshConnection: RequestHandler = (_req, res, next) => {
  res.setHeader('Connection', 'close');
  next();
};

/** POST /api/upload, POST /api/upload-chunk, GET /api/upload-chunk/offset, GET /api/upload-turn. */
export function uploadsRouter(uploads: UploadsService, turns: UploadTurns, limits: { maxUploadBytes: number; maxInProgress: number }): Router {
  const { maxUploadBytes } = limits;
  const busy = () => new AppError('unavailable', 'errors.uploads.too_many_in_progress', undefined, { retry_after: BUSY_RETRY_AFTER_S });
  const tooManyTurns = () => new AppError('rate_limited', 'errors.uploads.too_many_in_progress', undefined, { retry_after: BUSY_RETRY_AFTER_S });
  // A request sent in its turn (?turn=): the turn is used, and given back once it is answered.
  // A request larger than its turn (or not saying how large: chunked encoding) loses the turn.
  const inTurn: RequestHandler = (req, res, next) => {
    const token = typeof req.query.turn === 'string' ? req.query.turn : '';
    const length = req.headers['content-length'];
    const giveBack = token ? turns.claim(token, length === undefined ? Infinity : Number(length)) : undefined;
    if (giveBack) res.once('close', giveBack);
    next();
  };
  // One count for both routes: every upload request in progress holds a connection and a file.
  const capped = inProgressCap(limits.maxInProgress, busy);
  // Checked before any byte is read; the body is drained so a phone still sending sees the answer.
  const before =
    (check: (req: Request) => Promise<void>): RequestHandler =>
    (req, res, next) => {
      check(req).then(
        () => next(),
        (e) => (isAppError(e) ? sendErrorAfterDrain(req, res, e) : next(e)),
      );
    };
  const enabledOnly = before(() => uploads.ensureEnabled());
  // A whole file is judged by its declared size against the storage limit and the free space.
  const roomForFile = before((req) => uploads.admit(Number(req.headers['content-length'] ?? 0) || 0));
  // A body declared far over the limit is refused before any of it is read.
  const declaredSizeFits: RequestHandler = (req, res, next) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxUploadBytes + ENVELOPE_BYTES) sendErrorAfterDrain(req, res, fileTooLarge(maxUploadBytes));
    else next();
  };

  const api = Router();
  api.post('/upload', freshConnection, inTurn, capped, withGuest, declaredSizeFits, enabledOnly, roomForFile, async (req, res) => {
    sendCreated(res, await uploads.receiveFile(formOf(req), guestId(res), !!req.user));
  });

  api.post('/upload-chunk', freshConnection, inTurn, capped, withGuest, enabledOnly, async (req, res) => {
    const r = await uploads.receiveChunk(formOf(req), guestId(res), req.ip ?? '', !!req.user);
    if ('stored' in r) sendCreated(res, r.stored);
    else res.json({ success: true, ...r.progress });
  });

  api.get('/upload-chunk/offset', async (req, res) => {
    const q = req.query as Record<string, unknown>;
    const str = (k: string) => (typeof q[k] === 'string' ? (q[k] as string).trim() : '');
    const progress = await uploads.offset({
      uploadId: str('upload_id') || undefined,
      sessionId: str('session_id'),
      filename: str('filename'),
      totalSize: str('total_size'),
      guestId: guestIdOf(req) ?? null,
      uploaderName: str('uploader_name') || undefined,
      challengeId: str('challenge_id') || undefined,
      unlimited: !!req.user,
      capturedAt: str('captured_at') || undefined,
      table: str('table') || undefined,
    });
    res.json({ success: true, ...progress });
  });

  // A turn to send an upload request of `bytes` (uploads/turns.ts): answered once it is this
  // phone's turn ({turn}), or after a while with {turn: null} (ask again).
  // At most MAX_TURN_BYTES (the page's largest request), and TURNS_PER_ADDRESS asks and turns per address.
  api.get('/upload-turn', async (req, res) => {
    const raw = req.query.bytes === undefined ? '0' : req.query.bytes;
    const bytes = typeof raw === 'string' && /^\s*\d{1,16}\s*$/.test(raw) ? Number(raw) : NaN;
    if (!(bytes <= MAX_TURN_BYTES)) throw invalid('errors.uploads.turn_too_large', { max: MAX_TURN_BYTES });
    const address = req.ip ?? '';
    if (turns.full(address)) throw tooManyTurns();
    const waiting = turns.ask(bytes, (leave) => res.once('close', leave), address);
    if (!waiting) throw busy();
    const turn = await waiting;
    if (!res.writableEnded && !res.destroyed) res.json({ success: true, turn });
  });
  return api;
}
