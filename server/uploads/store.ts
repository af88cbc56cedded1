import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { recordUploadActivity } from '../activity/activity.repo.js';
import type { DataPaths } from '../context.js';
import type { DB, NewPhotoRow } from '../db/schema.js';
import { log } from '../log.js';
import { INVISIBLE_CHARS } from '../photos/file-names.js';
import { PhotosRepo } from '../photos/photos.repo.js';
import type { SniffedType } from './sniff.js';
import { UploadsRepo } from './uploads.repo.js';

/** What a stored photo needs from processing: its derivatives are queued. */
export interface Enqueue {
  enqueue(photoId: string, within?: Kysely<DB>): Promise<void>;
}

/** What a received file became: a new photo, or the existing photo with the same bytes. */
export interface StoredUpload {
  photoId: string;
  duplicate: boolean;
}

export interface ReceivedFile {
  /** Absolute path of the fully received file (UploadStore.store moves or deletes it). */
  tempPath: string;
  sha256: string;
  size: number;
  type: SniffedType;
  originalName: string;
  sessionId: string;
  uploader: Uploader;
  /** The chunked upload this file completes: its row is marked complete in the photo's transaction. */
  uploadId?: string;
}

/** Who sent a file: the guest's cookie id and the name they gave (null: anonymous). */
export interface Uploader {
  guestId: string | null;
  name: string | null;
}

/** Unguessable ids for photos and uploads (16 random bytes). */
export const newId = () => crypto.randomBytes(16).toString('base64url');

/** The client's file name is data only: no folders, no control characters, bounded length. */
export function cleanFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // Control characters, and the bidirectional marks and overrides that make "gpj.exe" read as
  // "exe.jpg" in a list, are dropped on purpose.
  const cleaned = base.replace(INVISIBLE_CHARS, '').trim();
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
 * the row is inserted with its activity and its processing job in one transaction (a failure
 * there removes the file again). The UNIQUE sha256 column decides races between identical uploads.
 */
export class UploadStore {
  private readonly photos: PhotosRepo;

  constructor(
    private readonly d: { paths: DataPaths; db: Kysely<DB>; repo: UploadsRepo; processing: Enqueue },
  ) {
    this.photos = new PhotosRepo(d.db);
  }

  async store(f: ReceivedFile): Promise<StoredUpload> {
    const { paths, repo } = this.d;
    const existing = await repo.photoIdBySha(f.sha256);
    if (existing) {
      await removeQuietly(f.tempPath);
      return { photoId: existing, duplicate: true };
    }
    const id = newId();
    const finalPath = path.join(paths.originals, `${id}.${f.type.ext}`);
    await fs.rename(f.tempPath, finalPath);
    const kind = f.type.mime.startsWith('video/') ? 'video' : 'photo';
    const row: NewPhotoRow = {
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
      uploader_name: f.uploader.name,
      guest_id: f.uploader.guestId,
    };
    const alongside = async (tx: Kysely<DB>) => {
      await recordUploadActivity(tx, { ...f.uploader, kind, filename: f.originalName });
      await this.d.processing.enqueue(id, tx);
      if (f.uploadId) await new UploadsRepo(tx).markComplete(f.uploadId, id, false);
    };
    const inserted = await this.photos.insertWith(row, alongside).catch(async (e) => {
      await removeQuietly(finalPath);
      throw e;
    });
    if (!inserted) {
      await removeQuietly(finalPath);
      const winner = await repo.photoIdBySha(f.sha256);
      if (!winner) throw new Error('An identical upload disappeared while this one was stored');
      return { photoId: winner, duplicate: true };
    }
    return { photoId: id, duplicate: false };
  }
}
