import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { recordActivity } from '../activity/activity.repo.js';
import type { Shared } from '../area.js';
import { log } from '../log.js';
import type { SniffedType } from './sniff.js';
import type { UploadsRepo } from './uploads.repo.js';

export interface StoredUpload {
  photoId: string;
  duplicate: boolean;
}

export interface ReceivedFile {
  /** Absolute path of the fully received file (it is moved or deleted by storeUpload). */
  tempPath: string;
  sha256: string;
  size: number;
  type: SniffedType;
  originalName: string;
  sessionId: string;
}

/** Unguessable ids for photos and uploads (16 random bytes). */
export const newId = () => crypto.randomBytes(16).toString('base64url');

/** The client's file name is data only: no folders, no control characters, bounded length. */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  if (!cleaned || cleaned === '.' || cleaned === '..') return 'upload';
  if (cleaned.length <= 200) return cleaned;
  const ext = path.extname(cleaned).slice(0, 16);
  return cleaned.slice(0, 200 - ext.length) + ext;
}

async function removeQuietly(file: string): Promise<void> {
  await fs.rm(file, { force: true }).catch((e) => log.warn(`Could not remove ${file}`, e));
}

/**
 * Turns a fully received file into a photo: an exact duplicate (same SHA-256) keeps the existing
 * photo and drops the file; otherwise the file moves into originals under a generated name and
 * the row is inserted. The UNIQUE sha256 column decides races between identical uploads.
 */
export async function storeUpload(shared: Shared, repo: UploadsRepo, f: ReceivedFile): Promise<StoredUpload> {
  const existing = await repo.photoIdBySha(f.sha256);
  if (existing) {
    await removeQuietly(f.tempPath);
    return { photoId: existing, duplicate: true };
  }
  const { paths } = shared.ctx;
  const id = newId();
  const finalPath = path.join(paths.originals, `${id}.${f.type.ext}`);
  await fs.rename(f.tempPath, finalPath);
  const inserted = await repo.insertPhotoUnlessDuplicate({
    id,
    original_filename: f.originalName,
    stored_path: path.relative(paths.root, finalPath),
    content_type: f.type.mime,
    file_size: f.size,
    sha256: f.sha256,
    status: 'processing',
    is_visible: 0,
    upload_timestamp: new Date().toISOString(),
    session_id: f.sessionId || null,
    width: null,
    height: null,
    orientation: null,
    duration: null,
    date_taken: null,
    camera_make: null,
    camera_model: null,
    processing_error: null,
    thumb_path: null,
    display_path: null,
    approved_at: null,
    uploader_name: null,
  });
  if (!inserted) {
    await removeQuietly(finalPath);
    const winner = await repo.photoIdBySha(f.sha256);
    if (!winner) throw new Error('An identical upload disappeared while this one was stored');
    return { photoId: winner, duplicate: true };
  }
  const kind = f.type.mime.startsWith('video/') ? 'video' : 'photo';
  await recordActivity(shared.ctx.db, 'upload', `New ${kind} uploaded: ${f.originalName}`);
  await shared.processing.enqueue(id);
  return { photoId: id, duplicate: false };
}

export function creationAnswer(r: StoredUpload): { status: number; body: Record<string, unknown> } {
  return r.duplicate
    ? { status: 200, body: { success: true, photo_id: r.photoId, duplicate: true, duplicate_type: 'exact' } }
    : { status: 201, body: { success: true, photo_id: r.photoId, duplicate: false, duplicate_type: null } };
}
