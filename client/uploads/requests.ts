import type { ErrorCode } from '../../common/api-types';
import { CHUNK_SIZE, MAX_CONFLICTS_IN_A_ROW, MAX_RETRY_AFTER_MS, MAX_TURN_ASKS, REQUEST_TIMEOUT_MS } from './constants';
import { MSG, statusFailed, UploadError } from './messages';
import { uploadTable } from './table';
import type { Timers, Transport, TransportRequest, TransportResponse } from './types';

/** What the server made of a whole file (SPEC §3 "upload creation response"). */
export interface Created {
  photoId: string | null;
  duplicate: boolean;
  duplicateType: string | null;
}

type Kind = 'upload' | 'chunk';

function parse(body: string): any {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** The machine code of an API error answer (what the client decides on), if the body has one. */
function errorCode(res: TransportResponse): ErrorCode | undefined {
  const code = parse(res.body)?.code;
  return typeof code === 'string' ? (code as ErrorCode) : undefined;
}

/** The error text of a failed answer, only ever shown: the server's `error` sentence, else its raw text. */
function failureText(res: TransportResponse): string {
  const data = parse(res.body);
  if (data && typeof data.error === 'string') return data.error;
  return res.body.trim().slice(0, 200);
}

/** Retry-After in ms (delta seconds or an HTTP date), bounded so a bad header cannot park a file for hours. */
export function retryAfterMs(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** SPEC §7/§8: turns a non-success answer into the catalogue's sentence. */
function failure(res: TransportResponse): UploadError {
  // 429/503 with Retry-After: the server is busy and says when to come back (a transient failure).
  // 507 with Retry-After: the disk filled while the server held part of this file; it is kept.
  const wait = res.status === 429 || res.status === 503 || res.status === 507 ? retryAfterMs(res.retryAfter) : undefined;
  if (wait !== undefined) return new UploadError(res.status === 503 ? MSG.unavailable : statusFailed(res.status, failureText(res)), false, wait);
  // A proxy in front of the server answers these without a JSON body.
  if (res.status === 502 || res.status === 503 || res.status === 504) return new UploadError(MSG.unavailable);
  if (errorCode(res) === 'uploads_disabled') return new UploadError(MSG.uploadsOff, true);
  if (res.status === 400 && parse(res.body)?.field === 'challenge_id') return new ChallengeGone(statusFailed(res.status, failureText(res)));
  return new UploadError(statusFailed(res.status, failureText(res)));
}

/** The photo challenge picked for the file is no longer one of the couple's (removed meanwhile): the file goes without it. */
export class ChallengeGone extends UploadError {}

/** SPEC §7: 201 created; 200 + duplicate true skipped; any other 200 is an error. */
export function readCreation(res: TransportResponse): Created {
  if (res.status === 201 || res.status === 200) {
    const data = parse(res.body);
    if (res.status === 200 && data === undefined) throw new UploadError(MSG.parse200);
    const created: Created = {
      photoId: data?.photo_id != null ? String(data.photo_id) : null,
      duplicate: data?.duplicate === true,
      duplicateType: data?.duplicate_type ?? null,
    };
    if (res.status === 200 && !created.duplicate) throw new UploadError(MSG.unexpected200);
    return created;
  }
  throw failure(res);
}

export class UploadRequests {
  constructor(
    private readonly transport: Transport,
    private readonly timers: Timers,
    private readonly sessionId: string,
    /** The guest's name as typed now (empty: anonymous); sent with every file and every chunk. */
    private readonly uploaderName: () => string = () => '',
  ) {}

  /** The guest's name and the file's photo challenge, when there are any. */
  private addFields(form: FormData, challengeId: string | null | undefined, capturedAt?: string | null): void {
    const name = this.uploaderName().trim();
    const table = uploadTable();
    if (table) form.append('table', String(table));
    if (name) form.append('uploader_name', name);
    if (challengeId) form.append('challenge_id', challengeId);
    if (capturedAt) form.append('captured_at', capturedAt);
  }

  /** One request with SPEC's 120 s limit; a missing answer becomes SPEC's network/timeout sentence. */
  async send(req: Omit<TransportRequest, 'signal'>, kind: Kind): Promise<TransportResponse> {
    const abort = new AbortController();
    let timedOut = false;
    const timer = this.timers.setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, REQUEST_TIMEOUT_MS);
    try {
      return await this.transport({ ...req, signal: abort.signal });
    } catch {
      if (timedOut) throw new UploadError(kind === 'chunk' ? MSG.timeoutChunk : MSG.timeoutUpload);
      throw new UploadError(kind === 'chunk' ? MSG.networkChunk : MSG.networkUpload);
    } finally {
      this.timers.clearTimeout(timer);
    }
  }

  /**
   * GET /api/upload-turn: waits until the server can take a request of `bytes` now, so the
   * request's answer follows its last byte instead of waiting behind every other phone's. The
   * answer is a `?turn=` for the request's address ('' when the server gives no turns: the
   * request goes as it is and is taken all the same).
   */
  async turn(bytes: number): Promise<string> {
    for (let asked = 0; asked < MAX_TURN_ASKS; asked++) {
      let res: TransportResponse;
      try {
        res = await this.send({ method: 'GET', url: `/api/upload-turn?bytes=${bytes}` }, 'chunk');
      } catch {
        return '';
      }
      if (res.status !== 200) return '';
      const turn = parse(res.body)?.turn;
      if (typeof turn === 'string' && turn) return `?turn=${encodeURIComponent(turn)}`;
      if (turn !== null) return '';
    }
    return '';
  }

  /** Files of 5 MB or less: one POST /api/upload (session_id first, then the file). */
  async single(file: File, onProgress: (bytes: number) => void, challengeId?: string | null, capturedAt?: string | null): Promise<Created> {
    const turn = await this.turn(file.size);
    const form = new FormData();
    form.append('session_id', this.sessionId);
    this.addFields(form, challengeId, capturedAt);
    form.append('file', file, file.name);
    const res = await this.send(
      {
        method: 'POST',
        url: `/api/upload${turn}`,
        body: form,
        onUploadProgress: (loaded, total) => onProgress(Math.min(file.size, Math.round((file.size * loaded) / (total || 1)))),
      },
      'upload',
    );
    return readCreation(res);
  }

  /**
   * GET /api/upload-chunk/offset: how much of this file the server already holds. When the
   * server finished the file but its answer was lost, it says so and the result is returned;
   * when it had every byte but could not store it yet, this call stores it (as this guest's).
   */
  async offset(file: File, uploadId: string, challengeId?: string | null, capturedAt?: string | null): Promise<{ receivedBytes: number; created?: Created }> {
    const q = new URLSearchParams({ session_id: this.sessionId, filename: file.name, total_size: String(file.size), upload_id: uploadId });
    const name = this.uploaderName().trim();
    if (name) q.set('uploader_name', name);
    if (challengeId) q.set('challenge_id', challengeId);
    if (capturedAt) q.set('captured_at', capturedAt);
    // The table goes with the question too: a file whose last bytes arrived before their answer was
    // lost is stored by this call, and must still count for the table's sign.
    const table = uploadTable();
    if (table) q.set('table', String(table));
    const res = await this.send({ method: 'GET', url: `/api/upload-chunk/offset?${q}` }, 'chunk');
    if (res.status !== 200) throw failure(res);
    const data = parse(res.body);
    const receivedBytes = typeof data?.received_bytes === 'number' ? Math.min(Math.max(0, data.received_bytes), file.size) : 0;
    if (data?.complete === true && data.photo_id != null) {
      const duplicate = data.duplicate === true;
      return { receivedBytes, created: { photoId: String(data.photo_id), duplicate, duplicateType: duplicate ? 'exact' : null } };
    }
    return { receivedBytes };
  }

  /**
   * POST /api/upload-chunk from `from` to the end, 5 MiB at a time (chunk_end exclusive). The form
   * fields go before the file part so the server can stream the chunk straight into place.
   */
  async chunks(file: File, uploadId: string, from: number, onProgress: (bytes: number) => void, challengeId?: string | null, capturedAt?: string | null): Promise<Created> {
    const total = file.size;
    // The server holds every byte but has not said the file is stored (an older server, or a race
    // with its store): its last byte again asks for the answer a last chunk gets.
    let offset = from >= total ? Math.max(0, total - 1) : from;
    let conflicts = 0;
    for (;;) {
      const start = offset;
      const end = Math.min(start + CHUNK_SIZE, total);
      const last = end >= total;
      const form = new FormData();
      form.append('session_id', this.sessionId);
      form.append('upload_id', uploadId);
      form.append('filename', file.name);
      form.append('total_size', String(total));
      form.append('chunk_start', String(start));
      form.append('chunk_end', String(end));
      form.append('is_last_chunk', String(last));
      this.addFields(form, challengeId, capturedAt);
      form.append('file', file.slice(start, end), file.name);
      const turn = await this.turn(end - start);
      const res = await this.send(
        {
          method: 'POST',
          url: `/api/upload-chunk${turn}`,
          body: form,
          onUploadProgress: (loaded, t) => onProgress(start + Math.min(end - start, Math.round(((end - start) * loaded) / (t || 1)))),
        },
        'chunk',
      );
      if (errorCode(res) === 'conflict') {
        // The server holds less than we thought (it restarted, or an answer was lost): go back to its offset.
        const received = parse(res.body)?.received_bytes;
        if (typeof received !== 'number' || ++conflicts > MAX_CONFLICTS_IN_A_ROW) throw failure(res);
        offset = Math.min(Math.max(0, received), total);
        onProgress(offset);
        continue;
      }
      conflicts = 0;
      if (last) return readCreation(res);
      if (res.status !== 200 && res.status !== 201) throw failure(res);
      const received = parse(res.body)?.received_bytes;
      offset = typeof received === 'number' && received > start ? Math.min(received, total) : end;
      onProgress(offset);
    }
  }

  /** GET /api/photos/{id}/status; null when there was no usable answer (polling just tries again). */
  async status(photoId: string): Promise<{ status: string; duplicateType: string | null } | null> {
    try {
      const res = await this.send({ method: 'GET', url: `/api/photos/${encodeURIComponent(photoId)}/status` }, 'upload');
      if (res.status !== 200) return null;
      const data = parse(res.body);
      return typeof data?.status === 'string' ? { status: data.status, duplicateType: data.duplicate_type ?? null } : null;
    } catch {
      return null;
    }
  }
}
