import { cleanUploaderName, parseIsoTime } from '../../common/rules.js';
import { invalid, tooLarge } from '../errors.js';
import type { FormFields } from './streams.js';
import { cleanFilename } from './store.js';

export interface ChunkFields {
  chunkStart: number;
  /** Exclusive. */
  chunkEnd: number;
  totalSize: number;
  filename: string;
  sessionId: string;
  isLast: boolean;
  /** is_last_chunk is true but the chunk ends before total_size: the upload can never complete. */
  endsShort: boolean;
  uploadId: string | undefined;
  /** Identifies the upload: its upload_id, else (session_id, filename, total_size). */
  key: string;
}


function wholeNumber(fields: FormFields, name: string): number {
  const raw = fields[name];
  if (raw === undefined || raw.trim() === '') throw invalid('errors.uploads.field_missing', { name });
  if (!/^\d{1,16}$/.test(raw.trim())) throw invalid('errors.uploads.field_not_bytes', { name, value: raw.slice(0, 40) });
  return Number(raw.trim());
}

function text(fields: FormFields, name: string, max: number): string | undefined {
  const v = fields[name]?.trim();
  if (!v) return undefined;
  if (v.length > max) throw invalid('errors.uploads.field_too_long_named', { name });
  return v;
}

/** The optional uploader_name field: cleaned, null when empty; too long is invalid_input. */
export function uploaderNameField(fields: FormFields): string | null {
  const r = cleanUploaderName(fields.uploader_name);
  if ('problem' in r) throw invalid(r.problem);
  return r.name;
}

/** The optional challenge_id field: one of `known` (the couple's challenges), null when empty; anything else is invalid_input. */
export function challengeField(fields: FormFields, known: ReadonlySet<string>): string | null {
  const id = fields.challenge_id?.trim();
  if (!id) return null;
  if (!known.has(id)) throw invalid('errors.uploads.unknown_challenge', undefined, { field: 'challenge_id' });
  return id;
}

/** The earliest capture time accepted (a phone whose clock was never set says 1970). */
const EARLIEST_CAPTURE_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 24 * 3600_000;

/**
 * When a photo or video taken in the page was taken (captured_at: ISO 8601 with its offset, the
 * phone's own clock), stored as its date taken unless the file says otherwise. Only metadata: a
 * value that is not such a time, or is far off, is left out rather than refusing the file.
 */
export function capturedAtField(fields: FormFields, now = Date.now()): string | null {
  const raw = fields.captured_at?.trim();
  if (!raw) return null;
  const t = parseIsoTime(raw);
  return t !== undefined && t >= EARLIEST_CAPTURE_MS && t <= now + DAY_MS ? raw : null;
}

export function uploadKey(uploadId: string | undefined, sessionId: string, filename: string, totalSize: number): string {
  return uploadId ? `id:${uploadId}` : `name:${sessionId}\u0000${filename}\u0000${totalSize}`;
}

/** Does the set carry everything needed to place the chunk (so it can be streamed straight in)? */
export const hasChunkFields = (f: FormFields) =>
  ['chunk_start', 'chunk_end', 'total_size', 'filename', 'session_id'].every((k) => f[k] !== undefined);

/** Validates a chunk's fields; a total over `maxUploadBytes` is too_large; a challenge_id must be one of `challenges`. */
export function parseChunkFields(fields: FormFields, maxUploadBytes: number, challenges: ReadonlySet<string> = new Set()): ChunkFields {
  const chunkStart = wholeNumber(fields, 'chunk_start');
  const chunkEnd = wholeNumber(fields, 'chunk_end');
  const totalSize = wholeNumber(fields, 'total_size');
  const rawName = text(fields, 'filename', 1000);
  if (!rawName) throw invalid('errors.uploads.field_missing', { name: 'filename' });
  const sessionId = text(fields, 'session_id', 200);
  if (!sessionId) throw invalid('errors.uploads.field_missing', { name: 'session_id' });
  const uploadId = text(fields, 'upload_id', 200);
  if (uploadId !== undefined && !/^[A-Za-z0-9_.:-]+$/.test(uploadId)) throw invalid('errors.uploads.upload_id_shape');
  const last = fields.is_last_chunk?.trim().toLowerCase();
  if (last !== undefined && last !== 'true' && last !== 'false') throw invalid('errors.uploads.is_last_chunk');
  uploaderNameField(fields); // a bad name is refused before any of the chunk is written
  challengeField(fields, challenges);

  if (totalSize === 0) throw invalid('errors.uploads.total_size_zero');
  if (totalSize > maxUploadBytes) throw tooLarge('errors.uploads.file_too_large', { limit: `${+(maxUploadBytes / 1024 ** 3).toFixed(2)} GB` });
  // An empty chunk at the very end carries nothing but the request to store what arrived (clients
  // that were told every byte is here but not that the file is stored send it).
  const emptyAtEnd = chunkStart === chunkEnd && chunkEnd === totalSize;
  if (chunkEnd <= chunkStart && !emptyAtEnd) throw invalid('errors.uploads.chunk_end_before_start');
  if (chunkEnd > totalSize) throw invalid('errors.uploads.chunk_end_past_total');
  const filename = cleanFilename(rawName);
  return {
    chunkStart,
    chunkEnd,
    totalSize,
    filename,
    sessionId,
    isLast: last === 'true' || chunkEnd === totalSize,
    endsShort: last === 'true' && chunkEnd < totalSize,
    uploadId,
    key: uploadKey(uploadId, sessionId, filename, totalSize),
  };
}

/**
 * The optional table field: the table whose QR sign the page was opened from (/live?table=7), a
 * whole number from 1 to `tables` (the settings' count); null when empty; anything else is invalid_input.
 */
export function tableField(fields: FormFields, tables: number): number | null {
  const raw = fields.table?.trim();
  if (!raw) return null;
  const n = /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (n >= 1 && n <= tables) return n;
  if (tables < 1) throw invalid('errors.wall.no_tables', undefined, { field: 'table' });
  throw invalid('errors.wall.table', { max: tables }, { field: 'table' });
}
