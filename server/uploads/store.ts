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
import type { Durable } from '../storage/durable.js';
import { KeyLock } from './key-lock.js';

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
  /** Absolute path of the fully received file (UploadStore.store moves or deletes it, or leaves it on failure). */
  tempPath: string;
  sha256: string;
  size: number;
  type: SniffedType;
  originalName: string;
  sessionId: string;
  uploader: Uploader;
  /** The chunked upload this file completes: its row is marked complete in the photo's transaction, and the photo takes its id. */
  uploadId?: string;
}

/** Who sent a file: the guest's cookie id and the name they gave (null: anonymous), and the challenge they picked. */
export interface Uploader {
  guestId: string | null;
  name: string | null;
  challengeId?: string | null;
  /** The table whose QR sign the page came from (1 to the settings' tables), or null. */
  table?: number | null;
  /** Sent by a signed-in user: not held to the guests' shot limit. */
  unlimited?: boolean;
  /** When it was taken in the page (captured_at), its date taken unless the file carries one. */
  capturedAt?: string | null;
}

/** The disposable-camera game (shot_limit): throws shot_limit_reached when guest `guestId` has no shot left. */
export interface ShotGate {
  admit(guestId: string): Promise<void>;
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

/** A new photo's row: hidden and waiting for processing, as every upload starts. */
function newPhotoRow(p: { id: string; storedPath: string; type: SniffedType; size: number; sha256: string; name: string; at: Date; sessionId: string | null; uploader: Uploader }): NewPhotoRow {
  return {
    id: p.id,
    original_filename: p.name,
    stored_path: p.storedPath,
    content_type: p.type.mime,
    file_size: p.size,
    sha256: p.sha256,
    status: 'processing',
    is_visible: 0,
    upload_timestamp: p.at.toISOString(),
    session_id: p.sessionId || null,
    width: null,
    height: null,
    orientation: null,
    duration: null,
    date_taken: p.uploader.capturedAt ?? null,
    camera_make: null,
    camera_model: null,
    processing_error: null,
    thumb_path: null,
    display_path: null,
    approved_at: null,
    uploader_name: p.uploader.name,
    guest_id: p.uploader.guestId,
    challenge_id: p.uploader.challengeId ?? null,
    table_number: p.uploader.table ?? null,
  };
}

/** An original already in media/originals that no photo owns (orphans.ts), described. */
export interface FoundOriginal {
  /** Absolute path; it stays where it is. */
  file: string;
  sha256: string;
  size: number;
  type: SniffedType;
  modifiedAt: Date;
}

/**
 * Turns a fully received file into a photo: an exact duplicate (same SHA-256) keeps the existing
 * photo and drops the file; otherwise the file moves into originals under a generated name and
 * the row is inserted with its activity and its processing job in one transaction. The UNIQUE
 * sha256 column decides races between identical uploads.
 *
 * The answer waits until a power cut can no longer take the photo back: the file's bytes were
 * synced as they arrived, its new name in originals is synced before the row that names it is
 * written, and the commit is synced before store() resolves (storage/durable.ts). A failure
 * before the commit puts the file back where it came from, so a chunked upload still holds every
 * byte and its next try stores it; a chunked upload's photo takes its upload's id, so a crash
 * between the rename and the commit leaves a file the upload finds again (partial-uploads.ts).
 */
export class UploadStore {
  private readonly photos: PhotosRepo;
  /** One store at a time per guest held to a shot limit: two uploads cannot both take the last shot. */
  private readonly guestLocks = new KeyLock();

  constructor(
    private readonly d: { paths: DataPaths; db: Kysely<DB>; repo: UploadsRepo; processing: Enqueue; durable: Durable; shots?: ShotGate },
  ) {
    this.photos = new PhotosRepo(d.db);
  }

  /**
   * Stores a received file; a guest held to the shot limit who has no shot left is refused
   * (shot_limit_reached) and nothing is stored. Sending again bytes the guest already owns (an
   * answer that was lost) takes no shot.
   */
  async store(f: ReceivedFile): Promise<StoredUpload> {
    const guest = f.uploader.guestId && !f.uploader.unlimited && this.d.shots ? f.uploader.guestId : null;
    if (!guest) return this.storeNow(f);
    const release = await this.guestLocks.acquire(guest);
    try {
      return await this.storeNow(f, guest);
    } finally {
      release();
    }
  }

  private async storeNow(f: ReceivedFile, limitedGuest: string | null = null): Promise<StoredUpload> {
    const { paths, repo } = this.d;
    const existing = await repo.photoIdBySha(f.sha256);
    if (existing) {
      if (limitedGuest && !(await this.ownedBy(existing, limitedGuest))) await this.d.shots!.admit(limitedGuest);
      return this.duplicateOf(existing, f, f.tempPath);
    }
    if (limitedGuest) await this.d.shots!.admit(limitedGuest);
    const id = f.uploadId ?? newId();
    const finalPath = path.join(paths.originals, `${id}.${f.type.ext}`);
    const kind = f.type.mime.startsWith('video/') ? 'video' : 'photo';
    const row = newPhotoRow({
      id,
      storedPath: path.relative(paths.root, finalPath),
      type: f.type,
      size: f.size,
      sha256: f.sha256,
      name: f.originalName,
      at: new Date(),
      sessionId: f.sessionId,
      uploader: f.uploader,
    });
    const alongside = async (tx: Kysely<DB>) => {
      await recordUploadActivity(tx, { ...f.uploader, kind, filename: f.originalName });
      await this.d.processing.enqueue(id, tx);
      if (f.uploadId) await new UploadsRepo(tx).markComplete(f.uploadId, id, false);
    };
    await fs.rename(f.tempPath, finalPath);
    let inserted: boolean;
    try {
      await this.d.durable.originals();
      inserted = await this.photos.insertWith(row, alongside);
    } catch (e) {
      // The answer may be lost after the commit (the writer thread gone with it): a row that owns
      // the file means it is stored, and the file stays where the row says.
      const owned = await this.owns(id, row.stored_path);
      if (owned === false) await putBack(finalPath, f.tempPath);
      if (owned !== true) throw e;
      inserted = true;
    }
    if (!inserted) {
      const winner = await repo.photoIdBySha(f.sha256);
      if (!winner) {
        await putBack(finalPath, f.tempPath);
        throw new Error('An identical upload disappeared while this one was stored');
      }
      return this.duplicateOf(winner, f, finalPath);
    }
    await this.d.durable.commits();
    return { photoId: id, duplicate: false };
  }

  /** Whether the guest sent this photo or owns it through a duplicate of its bytes. */
  private async ownedBy(photoId: string, guestId: string): Promise<boolean> {
    if ((await this.photos.get(photoId))?.guest_id === guestId) return true;
    return this.photos.ownedAlsoBy(photoId, guestId);
  }

  /**
   * Whether the photo row `id` exists and names `storedPath`: true or false, or undefined when
   * the database cannot say (then the file is left in originals, where the row finds it if it
   * exists, or the next start adopts it if not).
   */
  private async owns(id: string, storedPath: string): Promise<boolean | undefined> {
    try {
      return (await this.photos.get(id))?.stored_path === storedPath;
    } catch (e) {
      log.warn(`Could not tell whether photo ${id} was stored; its file stays in originals`, e);
      return undefined;
    }
  }

  /**
   * The bytes are a photo already (maybe one committed a moment ago, by another upload still
   * waiting for its own sync): answered once that commit is on the disk, and a chunked upload is
   * marked complete before its copy of the bytes goes.
   */
  private async duplicateOf(photoId: string, f: ReceivedFile, copy: string): Promise<StoredUpload> {
    try {
      // The photo is this guest's too: their list shows it, and it stays theirs if its sender takes it back.
      if (f.uploader.guestId) await this.photos.addOwner(photoId, f.uploader.guestId, f.uploader.name);
      await this.d.durable.commits();
      if (f.uploadId) await this.d.repo.markComplete(f.uploadId, photoId, true);
    } catch (e) {
      if (copy !== f.tempPath) await putBack(copy, f.tempPath);
      throw e;
    }
    await removeQuietly(copy);
    return { photoId, duplicate: true };
  }

  /**
   * An original no photo owned, found at start (orphans.ts): it becomes a hidden photo where it
   * lies, marked recovered so that automatic approval leaves it for the couple to look at, and is
   * processed like a new upload. False when its bytes are a photo already.
   */
  async adopt(o: FoundOriginal, id: string): Promise<boolean> {
    const row: NewPhotoRow = {
      ...newPhotoRow({
        id,
        storedPath: path.relative(this.d.paths.root, o.file),
        type: o.type,
        size: o.size,
        sha256: o.sha256,
        name: path.basename(o.file),
        at: o.modifiedAt,
        sessionId: null,
        uploader: { guestId: null, name: null },
      }),
      recovered_at: new Date().toISOString(),
    };
    const inserted = await this.photos.insertWith(row, (tx) => this.d.processing.enqueue(id, tx));
    if (inserted) await this.d.durable.commits();
    return inserted;
  }
}

/** A file moved into originals goes back to where it was received (it stays for the next try). */
async function putBack(finalPath: string, tempPath: string): Promise<void> {
  await fs.rename(finalPath, tempPath).catch((e) => log.error(`Could not move ${finalPath} back to ${tempPath}; it is recovered at the next start`, e));
}
