// Stores photos the way the upload and processing side leaves them (row + original + derivatives),
// so the read and moderation routes can be tested on real files without going through uploads.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import exifr from 'exifr';
import sharp from 'sharp';
import type { NewPhotoRow } from '../../server/db/schema.js';
import type { RunningServer } from '../../server/server.js';
import { tempDir } from '../helpers/server.js';
import { sample } from '../helpers/samples.js';

let seq = 0;

export interface AddPhoto {
  file?: string;
  visible?: boolean;
  uploadTimestamp?: string;
  /** false: the row as it is before processing (no derivatives yet). */
  derivatives?: boolean;
  originalFilename?: string;
  contentType?: string;
}

/** A short H.264 MP4 made with ffmpeg once per run. */
let videoFile: string | undefined;
export function testVideo(): string {
  if (videoFile) return videoFile;
  const out = path.join(tempDir('wedding-video-'), 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=15', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', out]);
  videoFile = out;
  return out;
}

export async function addPhoto(s: RunningServer, opts: AddPhoto = {}): Promise<string> {
  const file = opts.file ?? sample('Canon_40D.jpg');
  const isVideo = (opts.contentType ?? '').startsWith('video/') || file.endsWith('.mp4');
  const id = crypto.randomBytes(12).toString('base64url');
  const ext = path.extname(file).toLowerCase();
  const root = s.ctx.paths.root;
  const storedRel = path.relative(root, path.join(s.ctx.paths.originals, id + ext));
  fs.copyFileSync(file, path.join(root, storedRel));
  const bytes = fs.readFileSync(file);

  let width: number | null = null;
  let height: number | null = null;
  let make: string | null = null;
  let model: string | null = null;
  let dateTaken: string | null = null;
  let thumbRel: string | null = null;
  let displayRel: string | null = null;
  const withDerivatives = opts.derivatives ?? true;
  const dir = path.join(s.ctx.paths.derived, id);
  if (isVideo) {
    width = 320;
    height = 240;
    if (withDerivatives) {
      fs.mkdirSync(dir, { recursive: true });
      const poster = path.join(dir, 'poster.png');
      execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-frames:v', '1', poster]);
      await sharp(poster).webp().toFile(path.join(dir, 'thumb-v1.webp'));
      fs.rmSync(poster);
      execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map_metadata', '-1', '-c', 'copy', '-movflags', '+faststart', path.join(dir, 'display-v1.mp4')]);
      thumbRel = path.relative(root, path.join(dir, 'thumb-v1.webp'));
      displayRel = path.relative(root, path.join(dir, 'display-v1.mp4'));
    }
  } else {
    const meta = await sharp(file).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    width = swap ? meta.height! : meta.width!;
    height = swap ? meta.width! : meta.height!;
    const exif = await exifr.parse(file, ['Make', 'Model', 'DateTimeOriginal']).catch(() => undefined);
    make = exif?.Make ?? null;
    model = exif?.Model ?? null;
    dateTaken = exif?.DateTimeOriginal instanceof Date ? exif.DateTimeOriginal.toISOString() : null;
    if (withDerivatives) {
      fs.mkdirSync(dir, { recursive: true });
      await sharp(file).rotate().resize(400, 400, { fit: 'inside' }).webp().toFile(path.join(dir, 'thumb-v1.webp'));
      await sharp(file).rotate().resize(2048, 2048, { fit: 'inside', withoutEnlargement: true }).webp().toFile(path.join(dir, 'display-v1.webp'));
      thumbRel = path.relative(root, path.join(dir, 'thumb-v1.webp'));
      displayRel = path.relative(root, path.join(dir, 'display-v1.webp'));
    }
  }

  const row: NewPhotoRow = {
    id,
    original_filename: opts.originalFilename ?? path.basename(file),
    stored_path: storedRel,
    content_type: opts.contentType ?? (isVideo ? 'video/mp4' : 'image/jpeg'),
    file_size: bytes.length,
    // Unique even when the same sample is stored twice in one test.
    sha256: crypto.createHash('sha256').update(bytes).update(String(seq++)).digest('hex'),
    width,
    height,
    date_taken: dateTaken,
    camera_make: make,
    camera_model: model,
    status: withDerivatives ? 'complete' : 'processing',
    thumb_path: thumbRel,
    display_path: displayRel,
    derivative_version: withDerivatives ? 1 : 0,
    is_visible: opts.visible ? 1 : 0,
    upload_timestamp: opts.uploadTimestamp ?? new Date(Date.now() - 1000 + seq).toISOString(),
    session_id: 'test-session',
    uploader_name: null,
    processing_error: null,
    orientation: null,
    duration: isVideo ? 2 : null,
    approved_at: null,
  };
  await s.ctx.db.insertInto('photos').values(row).execute();
  return id;
}

/** Removes every photo row (files stay; each test file uses its own DATA_DIR). */
export async function clearPhotos(s: RunningServer): Promise<void> {
  await s.ctx.db.deleteFrom('photos').execute();
}
